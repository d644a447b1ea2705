/**
 * The first dip, said beside the held-out chart: GRPO's first steps pull held-out success down
 * (the default run: 80% → 53% at step 2) before it climbs. A reader takes that for GRPO breaking
 * the agent; it is Adam's first steps, measured (scripts/first-dip.ts, docs/results.md "The first
 * dip"). Pure: a run in, a sentence or null out.
 */
import { isPlateWorld } from '../../../env/world';
import { pct } from '../../format';
import type { RunView } from '../types';

/** A dip is looked for over the first this many steps after step 0 (where it falls, at every seed that dips). */
const DIP_STEPS = 5;
/** A fall of at least this many held-out sums counts as a dip: one sum (3.3 points) is a coin's toss. */
const DIP_SUMS = 2;

/**
 * How far a weight moves a step, in units of the learning rate, mean over the 104,208 weights
 * and seeds 1–5 (`npm run first-dip`, the "plate" row): at step 1 Adam's moments hold one
 * gradient, so m̂/√v̂ = ±1 and nearly every weight moves by the full rate; over the last 10 steps,
 * with the moments full, about a sixth of it.
 */
const WEIGHT_MOVE = { step1: 0.99, last10: 0.17 } as const;

/** The dip (mean points over seeds 1–5) and held-out at the end (mean %) under one recipe. */
interface Measured {
  dip: number;
  end: number;
}

/**
 * @internal A test seam: exported for test/ui/first-dip.test.ts.
 * Seeds 1–5, from the shipped agent, 40 steps: `npm run first-dip` (reliable) and
 * `npm run first-dip -- --faulty`. plate: the recipe as it is; warmup10: the learning rate
 * warmed up linearly over 10 steps; hold5: the same rate after Adam's moments filled on 5
 * batches at rate 0; cooler: sampling at temperature 0.5.
 */
export const FIRST_DIP_MEASURED: Record<
  'reliable' | 'faulty',
  { plate: Measured; warmup10: Measured; hold5: Measured; cooler: Measured }
> = {
  reliable: {
    plate: { dip: 16.0, end: 87.3 },
    warmup10: { dip: 2.0, end: 90.0 },
    hold5: { dip: 0.7, end: 92.7 },
    cooler: { dip: 14.7, end: 87.3 },
  },
  faulty: {
    plate: { dip: 16.7, end: 83.3 },
    warmup10: { dip: 2.0, end: 86.7 },
    hold5: { dip: 3.3, end: 94.0 },
    cooler: { dip: 19.3, end: 90.0 },
  },
};

const round = (x: number) => Math.round(x).toFixed(0);

/**
 * The sentence for a run whose held-out success falls at least DIP_SUMS sums below step 0's
 * within its first DIP_STEPS steps: what this run did, then why, in the measurement's numbers.
 * Null when the run does not dip (or has no steps yet), and where the dip is not measured: the
 * longer worlds, or the three-call agent playing one-call sums.
 */
export function firstDipWhy(run: RunView): string | null {
  const [start, ...after] = run.steps;
  const measured = isPlateWorld(run.config);
  if (!start || start.step !== 0 || !measured) return null;
  const window = after.filter((s) => s.step <= DIP_STEPS);
  const low = window.reduce<(typeof window)[number] | null>(
    (m, s) => (m === null || s.heldOutCorrect < m.heldOutCorrect ? s : m),
    null,
  );
  if (!low || start.heldOutCorrect - low.heldOutCorrect < DIP_SUMS) return null;
  const back = after.find((s) => s.step > low.step && s.heldOutCorrect >= start.heldOutCorrect);
  const last = after.at(-1)!;
  const shown = back ?? low;
  const what =
    `This run’s held-out success fell ${pct(start.heldOut)} → ${pct(low.heldOut)} at step ${low.step}` +
    (back
      ? `, back ${back.heldOutCorrect > start.heldOutCorrect ? 'above' : 'at'} its start by step ${back.step}`
      : '') +
    (last.step > shown.step ? ` (${pct(last.heldOut)} at step ${last.step})` : '') +
    '.';
  const m = FIRST_DIP_MEASURED[run.config.faulty ? 'faulty' : 'reliable'];
  const times = round(WEIGHT_MOVE.step1 / WEIGHT_MOVE.last10);
  return [
    what,
    `That is the update’s first steps, not a bug: Adam starts with empty moments, so its first step moves nearly every weight by the full learning rate, about ${times}× what a step moves near the end.`,
    `In the plate’s runs at seeds 1–5${run.config.faulty ? ' with the faulty calculator' : ''} the dip averages ${round(m.plate.dip)} points;` +
      ` with the learning rate warmed up over the first 10 steps, ${round(m.warmup10.dip)};` +
      ` at the full rate once Adam’s moments have filled on 5 batches, ${round(m.hold5.dip)} —` +
      ` and held-out ends no lower (${round(m.warmup10.end)}% and ${round(m.hold5.end)}%, against ${round(m.plate.end)}%).` +
      ` Sampling cooler (temperature 0.5) still dips ${round(m.cooler.dip)}.`,
  ].join(' ');
}
