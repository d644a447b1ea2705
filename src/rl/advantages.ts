/**
 * Group-relative advantages (GRPO, Shao et al. 2024, arXiv:2402.03300): each episode's reward
 * minus the mean reward of its group (the episodes sampled for the same sum), divided by the
 * group's standard deviation plus ε — or not divided at all (Dr. GRPO, Liu et al. 2025,
 * arXiv:2503.20783). A group whose rewards are all equal gets advantage exactly 0: it carries
 * no gradient, and never NaN.
 */
export interface AdvantageOptions {
  scaleByStd: boolean;
  stdEps: number;
}

export interface GroupStats {
  mean: number;
  /** Population standard deviation of the group's rewards. */
  std: number;
  /** All rewards equal: no signal from this group. */
  zeroSpread: boolean;
}

export function groupStats(rewards: readonly number[]): GroupStats {
  if (rewards.length === 0) throw new Error('groupStats: a group needs at least one reward');
  const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
  const std = Math.sqrt(rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / rewards.length);
  return { mean, std, zeroSpread: rewards.every((r) => r === rewards[0]) };
}

/** @internal A test seam: exported for its test. */
export function groupAdvantages(rewards: readonly number[], opts: AdvantageOptions): number[] {
  const { mean, std, zeroSpread } = groupStats(rewards);
  if (zeroSpread) return rewards.map(() => 0);
  return rewards.map((r) => (opts.scaleByStd ? (r - mean) / (std + opts.stdEps) : r - mean));
}

/** Advantages for consecutive groups of `groupSize` episodes. */
export function batchAdvantages(rewards: readonly number[], groupSize: number, opts: AdvantageOptions): number[] {
  if (rewards.length % groupSize !== 0)
    throw new Error(`batchAdvantages: ${rewards.length} rewards do not split into groups of ${groupSize}`);
  const out: number[] = [];
  for (let g = 0; g < rewards.length; g += groupSize)
    out.push(...groupAdvantages(rewards.slice(g, g + groupSize), opts));
  return out;
}
