/**
 * How long a run has left, in words, from the pace the worker measured: the status line says it
 * while a stage trains, and says once, plainly, when this browser trains slowly and what still
 * serves the reader. On a fast engine a run ends before the words would help, so they stay away.
 */
import type { Stage } from '../../../pipeline/stages';
import { stageWord } from './stages';

/** Below this the run ends about as soon as the words would be read: nothing is said. */
const SAY_FROM_MS = 10_000;
/** A step slower than this is a slow engine's (the plate's step is ~0.1 s on WASM): say what still serves. */
const SLOW_STEP_MS = 1_000;

/**
 * A duration in the words a reader rounds to: "about 45 s", "about 2 min", "about 1 h 10 min".
 * @internal A test seam: exported for test/ui/time-left.test.ts
 */
export function aboutDuration(ms: number): string {
  const s = ms / 1000;
  if (s < 55) return `about ${Math.max(5, Math.round(s / 5) * 5)} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `about ${min} min`;
  const h = Math.floor(min / 60);
  return `about ${h} h${min % 60 === 0 ? '' : ` ${min % 60} min`}`;
}

/**
 * The time left to the stage's last step at the measured pace — "about 2 min to step 40" — or
 * null when the run is nearly over or no pace is measured yet. A stage before GRPO names its end
 * and what follows, whose pace is not known yet: "about 40 s to fine-tuning step 200, then GRPO".
 */
export function timeLeftText(
  at: { stage: Stage; step: number; steps: number },
  msPerStep: number | null,
  stagesAfter: readonly Stage[] = [],
): string | null {
  if (msPerStep === null || !(msPerStep > 0)) return null;
  const left = (at.steps - at.step) * msPerStep;
  if (left <= SAY_FROM_MS) return null;
  if (at.stage === 'grpo') return `${aboutDuration(left)} to step ${at.steps}`;
  const then = stagesAfter.length > 0 ? `, then ${stagesAfter.map(stageWord).join(' and ')}` : '';
  return `${aboutDuration(left)} to ${stageWord(at.stage)} step ${at.steps}${then}`;
}

/** What a reader on a slow engine can still do, said once the pace is known to be slow. */
export function slowText(msPerStep: number | null, backend: string, bandDrawn: boolean): string | null {
  if (msPerStep === null || msPerStep < SLOW_STEP_MS) return null;
  const band = bandDrawn ? ' The grey bands are precomputed runs of these settings, drawn already.' : '';
  return (
    `This browser trains slowly here: ${(msPerStep / 1000).toFixed(1)} s a step on ${backend}. ` +
    `Step takes one step and takes it apart below the charts; Pause keeps what has trained.${band}`
  );
}
