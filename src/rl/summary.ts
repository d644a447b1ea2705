/** The plate's readouts of a run: held-out success at start and end, mean reward early and late. */
import type { GrpoRecord } from './grpo';

export interface RunSummary {
  heldOutStart: number;
  heldOutEnd: number;
  /** Mean reward of the sampled episodes over the first / last five steps. */
  rewardFirst5: number;
  rewardLast5: number;
  seconds: number;
}

export const READOUT_WINDOW = 5;

export function summarise(records: readonly Pick<GrpoRecord, 'heldOut' | 'meanReward'>[], seconds: number): RunSummary {
  const rewards = records.flatMap((r) => (r.meanReward === null ? [] : [r.meanReward]));
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(xs.length, 1);
  return {
    heldOutStart: records[0]?.heldOut ?? NaN,
    heldOutEnd: records[records.length - 1]?.heldOut ?? NaN,
    rewardFirst5: mean(rewards.slice(0, READOUT_WINDOW)),
    rewardLast5: mean(rewards.slice(-READOUT_WINDOW)),
    seconds,
  };
}
