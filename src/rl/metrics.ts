/**
 * A GRPO step's numbers under the names TRL's GRPOTrainer logs them (and the flat groups under
 * prime-rl's too), so a practitioner who goes on to a real run meets the same dials here first:
 * one object per step, the keys in this order.
 * Built from the step's record alone (the page, the exports and `npm run workshop` all use it).
 *
 *   reward                   mean reward of the sampled episodes, as the grader paid it
 *   reward_std               mean over groups of each group's reward std (n − 1, as torch's std and
 *                            TRL's); the advantages divide by the population std (÷ n, rl/advantages.ts)
 *   frac_reward_zero_std     groups whose rewards are all equal: they give no gradient
 *   frac_reward_zero_std/all_fail, …/all_pass   ours, not TRL's: those groups split into the ones
 *                            whose episodes all failed (no reward at all) and all were paid (solved)
 *   reward/solve_none, reward/solve_all, reward/effective_batch_size   the same split under the
 *                            names prime-rl's orchestrator logs it: all failed, all paid, and the
 *                            groups left that teach (1 − solve_none − solve_all; with 0/1 rewards,
 *                            1 − frac_reward_zero_std)
 *   entropy                  the policy's next-character entropy over the characters it sampled, nats
 *   completions/mean_length  the model's own characters per episode (the environment's excluded)
 *   clip_ratio/low_mean      ratio < 1 − ε where the advantage is negative, over the model's characters
 *   clip_ratio/high_mean     ratio > 1 + ε where it is positive
 *   clip_ratio/region_mean   either: low + high
 *   tools/call_frequency     calls the model began per episode (well-formed or not)
 *   tools/failure_frequency  share of those calls that failed (malformed or over-long)
 *
 * The run's μ (updates per batch, `updatesPerBatch`) is TRL's `num_iterations`.
 */
import type { GrpoRecord } from './grpo';

/** @internal A test seam: exported for test/rl/metrics.test.ts and test/ui/vital-signs.test.ts. */
export const METRIC_NAMES = [
  'step',
  'reward',
  'reward_std',
  'frac_reward_zero_std',
  'frac_reward_zero_std/all_fail',
  'frac_reward_zero_std/all_pass',
  'reward/solve_none',
  'reward/solve_all',
  'reward/effective_batch_size',
  'entropy',
  'completions/mean_length',
  'clip_ratio/low_mean',
  'clip_ratio/high_mean',
  'clip_ratio/region_mean',
  'tools/call_frequency',
  'tools/failure_frequency',
] as const;

type MetricName = (typeof METRIC_NAMES)[number];
export type StepMetrics = Record<MetricName, number>;

/** What the metrics read of a step: its record's figures and how many episodes it sampled. */
export type MetricSource = Pick<
  GrpoRecord,
  | 'step'
  | 'meanReward'
  | 'rewardStd'
  | 'zeroSpreadGroups'
  | 'allFailGroups'
  | 'allPassGroups'
  | 'entropy'
  | 'modelChars'
  | 'clip'
  | 'calls'
  | 'failedCalls'
> & { sampled: number };

/** The step's metrics, or null for step 0 (it samples nothing). */
export function stepMetrics(r: MetricSource): StepMetrics | null {
  if (r.meanReward === null || r.sampled === 0) return null;
  const began = r.calls + r.failedCalls;
  return {
    step: r.step,
    reward: r.meanReward,
    reward_std: r.rewardStd!,
    frac_reward_zero_std: r.zeroSpreadGroups!,
    'frac_reward_zero_std/all_fail': r.allFailGroups!,
    'frac_reward_zero_std/all_pass': r.allPassGroups!,
    'reward/solve_none': r.allFailGroups!,
    'reward/solve_all': r.allPassGroups!,
    'reward/effective_batch_size': 1 - r.allFailGroups! - r.allPassGroups!,
    entropy: r.entropy!,
    'completions/mean_length': r.modelChars / r.sampled,
    'clip_ratio/low_mean': r.clip!.low,
    'clip_ratio/high_mean': r.clip!.high,
    'clip_ratio/region_mean': r.clip!.region,
    'tools/call_frequency': began / r.sampled,
    'tools/failure_frequency': began === 0 ? 0 : r.failedCalls / began,
  };
}
