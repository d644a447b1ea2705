/**
 * Pure functions from runs to what the figure draws: the curves, the readouts, the plate's
 * marks and the "this run" column of the numbers table. No React, no DOM; tested in Node.
 */
import type { ChartId, StatedNumber } from '../../plate/types';
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

/** Held-out from step 0; the rest from step 1 (step 0 samples nothing). */
export function points(steps: readonly GrpoStepView[], chart: GrpoChart): [number, number][] {
  if (chart === 'heldOut') return steps.map((r) => [r.step, r.heldOut]);
  const sampled = steps.filter((r) => r.meanReward !== null);
  if (chart === 'reward') return sampled.map((r) => [r.step, r.meanReward!]);
  if (chart === 'truth') return sampled.map((r) => [r.step, r.trueSuccess!]);
  return sampled.map((r) => [r.step, (chart === 'copy' ? r.copied : r.malformed) / Math.max(r.sampled, 1)]);
}

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
