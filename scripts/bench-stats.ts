// Per-phase medians of a run's step records (steps ≥ 1; step 0 is evaluation only).
import type { PhaseTimings, StepRecord } from '../src/rl/trainer';

export type PhaseMedians = PhaseTimings;

export const median = (xs: number[]): number => {
  const s = [...xs].sort((p, q) => p - q);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export function phaseMedians(records: readonly Pick<StepRecord, 'step' | 'timings'>[]): PhaseMedians {
  const steps = records.filter((r) => r.step >= 1);
  const of = (k: keyof PhaseTimings) => median(steps.map((r) => r.timings[k]));
  return { sample: of('sample'), logprobs: of('logprobs'), gradient: of('gradient'), evaluate: of('evaluate'), total: of('total') };
}
