/**
 * The scale model's groups (rl/scale.ts): the sums' spread of difficulty, read off how many of each
 * group's 8 episodes were paid, and what the groups do when each added call is right with
 * probability q — the sampled reward, the groups that all fail or are all paid, and the correct
 * first calls pushed down.
 */
import { GRPO } from '../config';

/** The spread of difficulty: groups' success p on a grid, with the share of groups at each. */
export interface Difficulty {
  p: number[];
  weight: number[];
}

const binomial = (n: number, k: number): number => {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
};

/**
 * The mixture of binomials that best explains how many of each group's `paid.length − 1`
 * episodes were paid (maximum likelihood over a grid of 101 values of p, by EM from a flat start).
 */
export function difficultyFrom(paid: readonly number[], iterations = 2000): Difficulty {
  const n = paid.length - 1;
  const total = paid.reduce((s, x) => s + x, 0);
  if (n < 1 || !(total > 0)) throw new Error(`difficultyFrom: no groups to read (${JSON.stringify(paid)})`);
  const p = Array.from({ length: 101 }, (_, j) => j / 100);
  const like = paid.map((_, k) => p.map((pj) => binomial(n, k) * pj ** k * (1 - pj) ** (n - k)));
  let weight = p.map(() => 1 / p.length);
  for (let it = 0; it < iterations; it++) {
    const next = p.map(() => 0);
    paid.forEach((count, k) => {
      if (count === 0) return;
      const row = like[k]!;
      const fit = row.reduce((s, l, j) => s + l * weight[j]!, 0);
      row.forEach((l, j) => (next[j]! += (count * l * weight[j]!) / fit));
    });
    weight = next.map((x) => x / total);
  }
  return { p, weight };
}

/** What the groups do at `c` = q^(k−K) times their success at K. */
export interface GroupShares {
  reward: number;
  allFail: number;
  allPass: number;
  pushedDown: number;
}

/**
 * The group figures when each group's success is scaled by `c` (the model's header), episodes 8 a group.
 */
export function groupShares(d: Difficulty, c: number, q: number, groupSize = GRPO.episodesPerSum): GroupShares {
  if (!(q > 0 && q <= 1)) throw new Error(`groupShares: q must be in (0, 1], got ${q}`);
  let [reward, allFail, allPass, pushedDown] = [0, 0, 0, 0];
  d.p.forEach((p0, j) => {
    const w = d.weight[j]!;
    const p = p0 === 0 ? 0 : Math.min(1, p0 * c);
    const afterFirst = Math.min(1, p / q); // the rest right, given a right first call
    reward += w * p;
    allFail += w * (1 - p) ** groupSize;
    allPass += w * p ** groupSize;
    pushedDown += w * (1 - afterFirst) * (1 - (1 - p) ** (groupSize - 1));
  });
  return { reward, allFail, allPass, pushedDown };
}
