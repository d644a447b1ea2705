/**
 * Pure functions from runs to what the figure draws: the curves, the readouts, the plate's
 * marks and the "this run" column of the numbers table. No React, no DOM; tested in Node.
 */
import type { ChartId, StatedNumber } from '../../plate/types';
import { DEFAULT_SEED, REFERENCE_SEEDS } from '../../config';
import { isPlateWorld } from '../../env/world';
import { PLATE_SETTINGS, SETTING_KEYS, settingsLabel, type RunConfig } from '../../pipeline/settings';
import type { Stage } from '../../pipeline/stages';
import { mean } from 'd3';
import { READOUT_WINDOW } from '../../rl/summary';
import type { GrpoStepView } from '../../protocol/episode-view';
import { pct } from '../format';
import { toneOf, type Dash, type Marker, type RunView, type Series } from './types';

/** Where a run is: the stage of its latest record, that record's step, and the stage's steps. */
export function position(run: RunView): { stage: Stage; step: number; steps: number } | null {
  if (run.stage === 'grpo') {
    const last = run.steps.at(-1);
    return last ? { stage: 'grpo', step: last.step, steps: run.config.steps } : null;
  }
  const last = run[run.stage].at(-1);
  return last ? { stage: run.stage, step: last.step, steps: last.steps } : null;
}

/**
 * The GRPO charts: the plate's two, and the two that show what the model does; 'truth' is the
 * true success of the sampled episodes, drawn on the reward's chart.
 */
export type GrpoChart = ChartId | 'copy' | 'malformed' | 'truth';

/**
 * Held-out from step 0; the rest from step 1 (step 0 samples nothing).
 * @internal A test seam: exported for test/ui/curves.test.ts.
 */
export function points(steps: readonly GrpoStepView[], chart: GrpoChart): [number, number][] {
  if (chart === 'heldOut') return steps.map((r) => [r.step, r.heldOut]);
  const sampled = steps.filter((r) => r.meanReward !== null);
  if (chart === 'reward') return sampled.map((r) => [r.step, r.meanReward!]);
  if (chart === 'truth') return sampled.map((r) => [r.step, r.trueSuccess!]);
  return sampled.map((r) => [r.step, (chart === 'copy' ? r.copied : r.malformed) / Math.max(r.sampled, 1)]);
}

/** @internal A test seam: exported for test/ui/curves.test.ts. */
export const dashOf = (c: RunConfig): Dash =>
  c.masking ? (c.advantage === 'raw' ? 'dotted' : 'solid') : c.advantage === 'raw' ? 'dashdot' : 'dashed';

export function seriesOf(run: RunView, chart: GrpoChart, dim: boolean): Series {
  return {
    id: `run-${run.runId}`,
    label: `${dim ? 'earlier run' : 'this run'}: ${settingsLabel(run.config)}`,
    tone: toneOf(run.config.faulty),
    dim,
    dash: dashOf(run.config),
    points: points(run.steps, chart),
  };
}

/** The true success of a run's sampled episodes: drawn with its mean reward, on the same chart. */
export const TRUTH_LABEL = 'true success';
export const truthOf = (run: RunView): Series => ({
  id: `run-${run.runId}-truth`,
  label: TRUTH_LABEL,
  tone: toneOf(run.config.faulty),
  dim: false,
  dash: 'solid',
  points: points(run.steps, 'truth'),
});

/** How many earlier runs stay on the GRPO charts. */
const MAX_EARLIER = 3;

/** The earlier runs kept on the axes: the latest one of each configuration that drew a curve. */
export function earlierRuns(current: RunView | null, previous: readonly RunView[]): RunView[] {
  const kept: RunView[] = [];
  for (const run of [...previous].reverse()) {
    if (run.runId === current?.runId || run.steps.length < 2) continue;
    if (!kept.some((k) => settingsLabel(k.config) === settingsLabel(run.config))) kept.push(run);
  }
  return kept.slice(0, MAX_EARLIER).reverse();
}

export interface ReadoutValues {
  start: number | null;
  end: number | null;
  /** What start and end mean, e.g. "step 0 → step 12". */
  span: string;
}

export function readout(steps: readonly GrpoStepView[], chart: GrpoChart): ReadoutValues {
  if (chart === 'heldOut') {
    const last = steps.at(-1);
    return {
      start: steps[0]?.heldOut ?? null,
      end: last?.heldOut ?? null,
      span: last ? `step 0 → step ${last.step}` : 'step 0 → end',
    };
  }
  // The sampled figures are noisy: read the mean of the first and of the last few steps.
  const pts = points(steps, chart);
  if (pts.length === 0)
    return { start: null, end: null, span: `mean of the first ${READOUT_WINDOW} steps → the last ${READOUT_WINDOW}` };
  const first = pts.slice(0, READOUT_WINDOW);
  const last = pts.slice(-READOUT_WINDOW);
  const range = (xs: typeof pts) => (xs.length > 1 ? `${xs[0]![0]}–${xs.at(-1)![0]}` : `${xs[0]![0]}`);
  return {
    start: mean(first, (p) => p[1])!,
    end: mean(last, (p) => p[1])!,
    span: `mean of steps ${range(first)} → ${range(last)}`,
  };
}

export const readoutText = (r: ReadoutValues, format: (v: number) => string = pct): string =>
  `${r.start === null ? '—' : format(r.start)} → ${r.end === null ? '—' : format(r.end)}`;

/** The plate's numbers for one chart and calculator (the start is the same agent for both). */
export function plateRows(rows: readonly StatedNumber[], chart: ChartId, faulty: boolean): StatedNumber[] {
  return rows.filter((r) => r.chart === chart && (r.calculator === toneOf(faulty) || r.step === 0));
}

/** "77% → 83%", "81% at the end", "capped near 50%". */
export function platePhrase(rows: readonly StatedNumber[]): string {
  const short = (r: StatedNumber) => r.plate.replace(/\s*\(.*\)$/, '');
  const start = rows.find((r) => r.step === 0);
  const end = rows.find((r) => r.step !== 0);
  if (start && end) return `${short(start)} → ${short(end)}`;
  const only = end ?? start;
  if (!only) return '';
  return /^\d/.test(only.plate) ? `${short(only)} at the end` : only.plate;
}

export function markers(rows: readonly StatedNumber[], chart: ChartId, calculators: readonly boolean[]): Marker[] {
  const out: Marker[] = [];
  for (const faulty of calculators) {
    for (const r of plateRows(rows, chart, faulty)) {
      if (out.some((m) => m.step === r.step && Math.abs(m.value - r.value) < 1e-9)) continue;
      out.push({ step: r.step, value: r.value, label: `plate ${pct(r.value)}`, tone: toneOf(faulty) });
    }
  }
  return out;
}

/**
 * The settings a row of the plate's numbers is read under: the plate's, with the row's calculator
 * (the start row is the fine-tuned agent's held-out success before any GRPO step: either calculator).
 */
const rowReads = (row: StatedNumber, c: RunConfig): boolean =>
  SETTING_KEYS.every((k) => k === 'faulty' || c[k] === PLATE_SETTINGS[k]) &&
  (row.step === 0 || c.faulty === (row.calculator === 'faulty'));

/** What fills a row no run has filled yet, in the reader's words. */
const wouldFill = (row: StatedNumber): string =>
  row.step === 0
    ? '— (a run with the plate’s settings would fill this)'
    : `— (a run with the plate’s settings and the ${row.calculator} calculator would fill this)`;

/**
 * The live value for one of the plate's numbers, from the latest run made as the plate makes it
 * for that row — never from a run whose settings the plate's sentence does not describe.
 */
export function yourRun(row: StatedNumber, runs: readonly RunView[]): string {
  const run = [...runs].reverse().find((r) => rowReads(row, r.config) && r.steps.length > 0);
  if (!run) return wouldFill(row);
  const last = run.steps.at(-1)!;
  // The plate reads its row after step 40: a run that stopped short, or was set to fewer steps, says where it is.
  const partial = last.step !== row.step ? ` (step ${last.step})` : '';
  if (row.chart === 'heldOut') {
    const r = row.step === 0 ? run.steps[0]! : last;
    return `${pct(r.heldOut)} (${r.heldOutCorrect} of ${r.heldOutN})${row.step === 0 ? '' : partial}`;
  }
  const v = readout(run.steps, 'reward').end;
  return v === null ? '—' : `${pct(v)}${partial}`;
}

/**
 * Why a run outside the plate's world (more calls, or the three-call agent) ends below its start,
 * where it does: one sum of 30 is 3.3 points, and its reference runs (`like`: made as it was)
 * end where they end — 40 steps do not lift every seed. Null where it ends at or above its start,
 * or the run is the plate's (heldOutGap speaks for those).
 */
export function belowStart(run: RunView, like: readonly { heldOut: readonly number[] }[]): string | null {
  const [first, last] = [run.steps[0], run.steps.at(-1)];
  if (!first || !last || last.step === 0 || isPlateWorld(run.config)) return null;
  const d = first.heldOutCorrect - last.heldOutCorrect;
  if (d <= 0) return null;
  const n = last.heldOutN;
  const ends = like.map((r) => r.heldOut.at(-1)!);
  const band =
    ends.length > 0
      ? ` Our ${ends.length} reference runs made like it end at ${pct(mean(ends)!)} on average (${pct(Math.min(...ends))}–${pct(Math.max(...ends))}), ${ends.filter((e) => e < first.heldOut).length} of them below the start: 40 GRPO steps do not lift every seed.`
      : '';
  return `Held-out success counts ${n} sums, one sum is ${(100 / n).toFixed(1)} points: this run ends ${d === 1 ? 'one sum' : `${d} sums`} below its start (${pct(first.heldOut)} → ${pct(last.heldOut)}).${band}`;
}

/** A run's seed as the legend and the seed control say it: which of the reference band's it is. */
export function seedPhrase(seed: number): string {
  if (seed === DEFAULT_SEED) return `seed ${seed} of the band’s five: the one nearest the plate`;
  if ((REFERENCE_SEEDS as readonly number[]).includes(seed)) return `seed ${seed}, one of the band’s five`;
  return `seed ${seed}, drawn (the band is seeds ${REFERENCE_SEEDS[0]}–${REFERENCE_SEEDS.at(-1)})`;
}

const sums = (n: number) => `${n} sum${n === 1 ? '' : 's'} of 30`;
/** "one sum of 30 above the plate’s 77%", or '' where they agree. */
function gap(correct: number, plateValue: number, n: number): string {
  const d = correct - Math.round(plateValue * n);
  return d === 0 ? '' : `${sums(Math.abs(d))} ${d > 0 ? 'above' : 'below'} the plate’s ${pct(plateValue)}`;
}

/**
 * Why the live run's held-out success differs from the plate's, in a sentence a reader
 * understands, or null where it does not (or the run is not made as the plate makes that row):
 * held-out success counts 30 sums, so one sum is 3.3 points; and held-out is graded with the
 * reliable calculator, so the faulty one caps the reward a run is paid, not what it learns.
 */
export function heldOutGap(run: RunView, rows: readonly StatedNumber[], earlier: readonly RunView[]): string | null {
  const mine = plateRows(rows, 'heldOut', run.config.faulty).filter((r) => rowReads(r, run.config));
  const first = run.steps[0];
  const last = run.steps.at(-1);
  if (!first || !last || mine.length === 0) return null;
  const start = mine.find((r) => r.step === 0);
  const end = mine.find((r) => r.step !== 0 && r.step === last.step);
  const parts = [
    start &&
      gap(first.heldOutCorrect, start.value, first.heldOutN) &&
      `it starts ${gap(first.heldOutCorrect, start.value, first.heldOutN)}`,
    end &&
      gap(last.heldOutCorrect, end.value, last.heldOutN) &&
      `it ends ${gap(last.heldOutCorrect, end.value, last.heldOutN)}`,
  ].filter(Boolean);
  const sentences: string[] = [];
  if (parts.length > 0)
    sentences.push(`Held-out success counts 30 sums, one sum is 3.3 points: ${parts.join(', and ')}.`);
  // The reliable twin: the same settings but the calculator, trained as far.
  const twin = (r: RunView) => SETTING_KEYS.every((k) => k === 'faulty' || r.config[k] === run.config[k]);
  const reliable = [...earlier]
    .reverse()
    .find((r) => !r.config.faulty && twin(r) && r.steps.at(-1)?.step === last.step);
  if (run.config.faulty && reliable && last.heldOut >= reliable.steps.at(-1)!.heldOut)
    sentences.push(
      'This faulty run ends at or above the reliable one: held-out is graded with the reliable calculator, so the faulty one caps the reward the policy is paid, not what it learns.',
    );
  return sentences.length > 0 ? sentences.join(' ') : null;
}
