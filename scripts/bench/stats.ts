// Per-phase medians of a run's step records (steps ≥ 1; step 0 is evaluation only).
import { median as d3median } from 'd3';
import type { PhaseTimings, GrpoRecord, TimeSplit } from '../../src/rl/grpo';

/** Each phase's median, and the median over steps of the push's share of its step. */
export type PhaseMedians = PhaseTimings & { pushShare: number };

/** d3's median, NaN for no values. */
export const median = (xs: readonly number[]): number => d3median(xs) ?? NaN;

export function phaseMedians(records: readonly Pick<GrpoRecord, 'step' | 'timings'>[]): PhaseMedians {
  const steps = records.filter((r) => r.step >= 1);
  const of = (k: keyof PhaseTimings) => median(steps.map((r) => r.timings[k]));
  const pushShare = median(steps.map((r) => r.timings.push / r.timings.total));
  return { sample: of('sample'), logprobs: of('logprobs'), gradient: of('gradient'), evaluate: of('evaluate'), push: of('push'), total: of('total'), pushShare };
}

/** Medians over steps ≥ 1 of where each step's own work went (GrpoRecord.timeSplit), and of the steps' sum over a run (ms). */
export type SplitMedians = TimeSplit & { sumMs: number };

export function timeSplitMedians(records: readonly Pick<GrpoRecord, 'step' | 'timeSplit' | 'timings'>[]): SplitMedians {
  const steps = records.filter((r) => r.step >= 1);
  const of = (k: keyof TimeSplit) => median(steps.map((r) => r.timeSplit[k]));
  return { sampling: of('sampling'), update: of('update'), evaluation: of('evaluation'), sumMs: steps.reduce((t, r) => t + r.timings.total, 0) };
}
