// Per-phase medians of a run's step records (steps ≥ 1; step 0 is evaluation only).
import { median as d3median } from 'd3';
import type { PhaseTimings, GrpoRecord } from '../src/rl/grpo';

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
