/**
 * Two figures of a GRPO step that show what grows with the episode (the plate's closing claims),
 * computed from the step's sampled episodes and the advantages the update gave them:
 *
 *   zeroSpreadGroups        the share of groups whose rewards are all equal: every advantage in
 *                           them is 0, so they teach nothing (TRL's frac_reward_zero_std)
 *   allFailGroups           of them, the groups whose every episode failed (reward 0): no reward
 *                           to learn from at all — what "rewards become sparser" grows
 *   allPassGroups           and the groups whose every episode was paid: solved, teaching nothing
 *                           either (with 0/1 rewards the two sum to zeroSpreadGroups)
 *   correctCallsPushedDown  of the episodes whose first call was correct, the share whose
 *                           advantage was negative: the update pushed a right decision down
 *                           because of what came after it (credit spread over every action)
 *   paidCounts              how many groups had 0, 1, …, n of their n episodes paid: the spread
 *                           of difficulty across sums that the scale model reads (rl/scale.ts)
 */
import { promptFor } from '../env/episode';
import { terms, type Sum } from '../env/sums';
import { REWARD_CORRECT, REWARD_WRONG } from '../env/grader';
import { CALL, END } from '../model/vocab';
import { groupStats } from './advantages';

/** Shares of a step's groups that teach nothing: all rewards equal, and of them all failed or all paid. */
export interface FlatGroups {
  zeroSpreadGroups: number;
  allFailGroups: number;
  allPassGroups: number;
}

/** The shares of the consecutive groups of `groupSize` rewards that are flat, and how (FlatGroups). */
export function flatGroupShares(rewards: readonly number[], groupSize: number): FlatGroups {
  if (rewards.length === 0 || rewards.length % groupSize !== 0)
    throw new Error(`flatGroupShares: ${rewards.length} rewards do not make whole groups of ${groupSize}`);
  const groups = rewards.length / groupSize;
  let zero = 0;
  let fail = 0;
  let pass = 0;
  for (let g = 0; g < rewards.length; g += groupSize) {
    const group = rewards.slice(g, g + groupSize);
    if (groupStats(group).zeroSpread) zero++;
    if (group.every((r) => r === REWARD_WRONG)) fail++;
    if (group.every((r) => r === REWARD_CORRECT)) pass++;
  }
  return { zeroSpreadGroups: zero / groups, allFailGroups: fail / groups, allPassGroups: pass / groups };
}

/**
 * How many of the consecutive groups of `groupSize` rewards had 0, 1, …, groupSize episodes paid
 * (reward REWARD_CORRECT): entry n counts the groups with n paid. Its ends are the all-fail and
 * the all-pass groups (flatGroupShares), its middle the groups that teach.
 */
export function paidCounts(rewards: readonly number[], groupSize: number): number[] {
  if (rewards.length === 0 || rewards.length % groupSize !== 0)
    throw new Error(`paidCounts: ${rewards.length} rewards do not make whole groups of ${groupSize}`);
  const counts = new Array<number>(groupSize + 1).fill(0);
  for (let g = 0; g < rewards.length; g += groupSize)
    counts[rewards.slice(g, g + groupSize).filter((r) => r === REWARD_CORRECT).length]!++;
  return counts;
}

/**
 * @internal A test seam: exported for test/rl/figures.test.ts.
 * The episode's first call is the right one: its transcript goes on from the prompt with exactly
 * `B` + the sum's first two terms + `|` (`^23+45+17=B23+45|…`; `^23+45=B23+45|…` with one call),
 * whatever the calculator then answered and whatever the model did next.
 */
export function firstCallCorrect(e: { sum: Sum; text: string }): boolean {
  const [a, b] = terms(e.sum);
  return e.text.startsWith(`${promptFor(e.sum)}${CALL}${a}+${b}${END}`);
}

/**
 * Of the episodes whose first call was correct (firstCallCorrect), the share whose advantage was
 * negative: the policy loss lowers the log-probability of every character the model wrote in such
 * an episode, the correct call's included. 0 when no episode's first call was correct. With one
 * call a correct call is pushed down when its answer fails; with two, also when the second call
 * does; with the raw reward as advantage nothing is ever negative.
 */
export function correctCallsPushedDown(
  episodes: readonly { sum: Sum; text: string }[],
  advantages: readonly number[],
): number {
  if (episodes.length !== advantages.length)
    throw new Error(`correctCallsPushedDown: ${episodes.length} episodes but ${advantages.length} advantages`);
  let correct = 0;
  let pushedDown = 0;
  episodes.forEach((e, i) => {
    if (!firstCallCorrect(e)) return;
    correct++;
    if (advantages[i]! < 0) pushedDown++;
  });
  return correct === 0 ? 0 : pushedDown / correct;
}
