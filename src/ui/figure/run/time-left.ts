/**
 * How long a run has left, in words, from the pace the worker measured: the status line says it
 * while a stage trains, and says once, plainly, when this browser trains slowly, why (the engine's
 * condition, as the worker measured it), and what still serves the reader. The pace is the
 * stage's last steps' where a step has been timed; before that, on an engine slow enough that a
 * step reports its parts, the record in flight's parts so far (from the first one onward). On a
 * fast engine a run ends before the words would help, so they stay away.
 */
import type { InFlight } from '../../../client/worker-state';
import { NO_JIT_FROM, type EngineReport } from '../../../protocol/backends';
import type { WorkPhase } from '../../../model/parts';
import type { Stage } from '../../../pipeline/stages';
import { stageWord } from './stages';

/** Below this the run ends about as soon as the words would be read: nothing is said. */
const SAY_FROM_MS = 10_000;
/** A step slower than this is a slow engine's (the plate's step is ~0.1 s on WASM): say what still serves. */
const SLOW_STEP_MS = 1_000;
/** A run the slow note offers instead takes about this long. */
const OFFER_MS = 10 * 60_000;

/** A duration in the words a reader rounds to: "about 45 s", "about 2 min", "about 1 h 10 min". */
export function aboutDuration(ms: number): string {
  const s = ms / 1000;
  if (s < 55) return `about ${Math.max(5, Math.round(s / 5) * 5)} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `about ${min} min`;
  const h = Math.floor(min / 60);
  return `about ${h} h${min % 60 === 0 ? '' : ` ${min % 60} min`}`;
}

/** A step's time as the status shows it: "69 ms", "3.6 s", "about 3 min". */
export function stepTime(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 55_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  return aboutDuration(ms);
}

/** The record in flight, where it reports its parts: which, how far, and the time it has left. */
export interface InFlightPace {
  stage: Stage;
  step: number;
  phase: WorkPhase;
  /** The share of its work done, 0 to 1. */
  share: number;
  leftMs: number;
}

export interface Pace {
  /** A step's ms: measured over the stage's last steps, or estimated from the record in flight's parts. */
  msPerStep: number | null;
  /** No step of the stage is timed yet: msPerStep is the parts' estimate. */
  estimated: boolean;
  inFlight: InFlightPace | null;
}

/**
 * The pace of a run whose latest record is of `stage`: its steps' rate, else — a record of
 * another stage in flight, or none timed yet — the parts' time so far over their share of a usual step.
 */
export function paceOf(stepsPerSecond: number | null, stage: Stage | null, inFlight: InFlight | null): Pace {
  const perUnit = inFlight && inFlight.done > 0 ? inFlight.ms / inFlight.done : null;
  const flight =
    inFlight && perUnit !== null
      ? {
          stage: inFlight.stage,
          step: inFlight.step,
          phase: inFlight.phase,
          share: inFlight.done / inFlight.of,
          leftMs: (inFlight.of - inFlight.done) * perUnit,
        }
      : null;
  const measured = stepsPerSecond !== null && stepsPerSecond > 0 && (!flight || flight.stage === stage);
  if (measured) return { msPerStep: 1000 / stepsPerSecond, estimated: false, inFlight: flight };
  if (flight) return { msPerStep: inFlight!.perStep * perUnit!, estimated: true, inFlight: flight };
  return { msPerStep: null, estimated: false, inFlight: null };
}

/**
 * The time left to the stage's last step at the measured pace — "about 2 min to step 40" — or
 * null when the run is nearly over or no pace is measured yet. With a record in flight, its own
 * time left and the steps after it. A stage before GRPO names its end and what follows, whose
 * pace is not known yet: "about 40 s to fine-tuning step 200, then GRPO".
 */
export function timeLeftText(
  at: { stage: Stage; step: number; steps: number },
  msPerStep: number | null,
  stagesAfter: readonly Stage[] = [],
  inFlight: Pick<InFlightPace, 'step' | 'leftMs'> | null = null,
): string | null {
  if (msPerStep === null || !(msPerStep > 0)) return null;
  const left = inFlight ? inFlight.leftMs + (at.steps - inFlight.step) * msPerStep : (at.steps - at.step) * msPerStep;
  if (left <= SAY_FROM_MS) return null;
  if (at.stage === 'grpo') return `${aboutDuration(left)} to step ${at.steps}`;
  const then = stagesAfter.length > 0 ? `, then ${stagesAfter.map(stageWord).join(' and ')}` : '';
  return `${aboutDuration(left)} to ${stageWord(at.stage)} step ${at.steps}${then}`;
}

const PHASE_WORDS: Record<WorkPhase, string> = {
  sampling: 'sampling',
  update: 'the update',
  evaluation: 'the held-out evaluation',
};

/** The record in flight in words: "step 1: the update, 45%". */
export const inFlightText = (f: InFlightPace): string =>
  `step ${f.step}: ${PHASE_WORDS[f.phase]}, ${Math.floor(100 * Math.min(f.share, 1))}%`;

/**
 * Why this engine trains slowly, as the worker measured it — "This browser runs no WebAssembly,
 * and JavaScript without its JIT (…about 60× slower than with one)" — or null where neither holds.
 * subject: "It" after the sentence that says how slowly.
 */
export function engineText(engine: EngineReport, subject = 'This browser'): string | null {
  const wasm =
    engine.webAssembly === 'none'
      ? 'runs no WebAssembly'
      : engine.webAssembly === 'no-simd'
        ? 'has WebAssembly without SIMD, which the plate’s WebAssembly build needs'
        : null;
  const slow = engine.jsSlowdown;
  const jit =
    slow !== null && slow >= NO_JIT_FROM
      ? `JavaScript without its JIT (a short timed loop ran about ${Math.round(slow / 5) * 5}× slower than with one)`
      : null;
  if (wasm && jit) return `${subject} ${wasm}, and ${jit}.`;
  if (wasm) return `${subject} ${wasm}.`;
  return jit && `${subject} runs ${jit}.`;
}

/** What a reader on a slow engine is told of its pace, once the pace is known to be slow; null on a fast one. */
export function slowText(pace: Pick<Pace, 'msPerStep' | 'estimated'>, backend: string): string | null {
  const ms = pace.msPerStep;
  if (ms === null || ms < SLOW_STEP_MS) return null;
  const how = pace.estimated ? ', from the parts of the step in flight' : '';
  return `This browser trains slowly here: ${stepTime(ms)} a step on ${backend}${how}.`;
}

/** Fewer steps to offer: a run of about ten minutes at this pace, or null when the run is as short already. */
export function fewerSteps(msPerStep: number, steps: number): number | null {
  const n = Math.max(1, Math.round(OFFER_MS / msPerStep));
  return n < steps ? n : null;
}

/** What still serves the reader, after the offer of fewer steps (if any). */
export const stillServes = (bandDrawn: boolean): string =>
  'Step takes one step and takes it apart below the charts; Pause keeps what has trained.' +
  (bandDrawn ? ' The grey bands are precomputed runs of these settings, drawn already.' : '');
