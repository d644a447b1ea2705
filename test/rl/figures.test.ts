// The two per-step figures of what grows with the episode, against hand-made batches in both worlds.
import { describe, expect, it } from 'vitest';
import { correctCallsPushedDown, firstCallCorrect, flatGroupShares, paidCounts } from '../../src/rl/figures';

const ONE = { a: 23, b: 45 };
const TWO = { a: 23, b: 45, c: 17 };
const ep = (sum: { a: number; b: number; c?: number }, text: string) => ({ sum, text });

describe('the share of groups whose rewards are all equal (zeroSpreadGroups), split', () => {
  const zero = (rewards: number[], size: number) => flatGroupShares(rewards, size).zeroSpreadGroups;

  it('counts all-right and all-wrong groups alike, and no group with any spread', () => {
    expect(zero([1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 1, 1], 4)).toBeCloseTo(2 / 3, 12);
    expect(zero([1, 0, 0, 0, 0, 1], 3)).toBe(0);
    expect(zero([0, 0], 2)).toBe(1);
  });

  it('tells the groups that all failed from those that were all paid, and they sum to the flat ones', () => {
    expect(flatGroupShares([1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0], 4)).toEqual({
      zeroSpreadGroups: 3 / 4,
      allFailGroups: 2 / 4,
      allPassGroups: 1 / 4,
    });
    expect(flatGroupShares([1, 0, 0, 0, 0, 1], 3)).toEqual({ zeroSpreadGroups: 0, allFailGroups: 0, allPassGroups: 0 });
  });

  it('refuses rewards that do not make whole groups', () => {
    expect(() => flatGroupShares([1, 0, 1], 2)).toThrow(/3 rewards do not make whole groups of 2/);
    expect(() => flatGroupShares([], 8)).toThrow(/0 rewards/);
  });
});

describe('the groups by how many of their episodes were paid (paidCounts)', () => {
  it('counts each group once, at its number of paid episodes, the ends being the all-fail and all-paid groups', () => {
    expect(paidCounts([1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0], 4)).toEqual([1, 1, 0, 1, 1]);
    expect(paidCounts([0, 0, 0, 0], 2)).toEqual([2, 0, 0]);
  });

  it('refuses rewards that do not make whole groups', () => {
    expect(() => paidCounts([1, 0, 1], 2)).toThrow(/3 rewards do not make whole groups of 2/);
  });
});

describe('a first call that is correct', () => {
  it('is B and the sum’s first two terms, right after the prompt, whatever follows', () => {
    expect(firstCallCorrect(ep(ONE, '^23+45=B23+45|68|61|'))).toBe(true);
    expect(firstCallCorrect(ep(TWO, '^23+45+17=B23+45|68|B67+17|84|84|'))).toBe(true);
    expect(firstCallCorrect(ep(TWO, '^23+45+17=B23+45|58|'))).toBe(true); // a lie after it changes nothing
  });

  it('is not a slipped operand, a call that starts on a later term, a longer operand, or no call', () => {
    expect(firstCallCorrect(ep(ONE, '^23+45=B23+44|67|67|'))).toBe(false);
    expect(firstCallCorrect(ep(TWO, '^23+45+17=B45+17|62|'))).toBe(false);
    expect(firstCallCorrect(ep(TWO, '^23+45+17=B23+451'))).toBe(false);
    expect(firstCallCorrect(ep(ONE, '^23+45=68|'))).toBe(false);
    expect(firstCallCorrect(ep(ONE, '^23+45=B23+45'))).toBe(false); // never closed
  });
});

describe('correct calls pushed down (correctCallsPushedDown)', () => {
  it('is, of the episodes whose first call was correct, the share with a negative advantage (two calls)', () => {
    // One group: a success, a wrong second call, a slipped answer, a slipped first call.
    const episodes = [
      ep(TWO, '^23+45+17=B23+45|68|B68+17|85|85|'),
      ep(TWO, '^23+45+17=B23+45|68|B68+71|139|139|'),
      ep(TWO, '^23+45+17=B23+45|68|B68+17|85|58|'),
      ep(TWO, '^23+45+17=B23+44|67|B67+17|84|84|'),
    ];
    const advantages = [1.73, -0.58, -0.58, -0.58]; // one right of four
    // Three correct first calls; two of them pushed down. The slipped call's episode does not count.
    expect(correctCallsPushedDown(episodes, advantages)).toBeCloseTo(2 / 3, 12);
  });

  it('counts a correct call pushed down when its one-call answer fails', () => {
    const episodes = [ep(ONE, '^23+45=B23+45|68|68|'), ep(ONE, '^23+45=B23+45|68|61|')];
    expect(correctCallsPushedDown(episodes, [1, -1])).toBe(0.5);
  });

  it('is 0 when no advantage is negative: a zero-spread group, or the raw reward', () => {
    const episodes = [ep(TWO, '^23+45+17=B23+45|68|B68+17|85|85|'), ep(TWO, '^23+45+17=B23+45|68|B68+17|85|58|')];
    expect(correctCallsPushedDown(episodes, [0, 0])).toBe(0);
    expect(correctCallsPushedDown(episodes, [1, 0])).toBe(0);
  });

  it('is 0 when no episode’s first call was correct, however negative the advantages', () => {
    expect(correctCallsPushedDown([ep(ONE, '^23+45=B32+45|77|77|')], [-1])).toBe(0);
  });

  it('refuses episodes and advantages of different lengths', () => {
    expect(() => correctCallsPushedDown([ep(ONE, '^23+45=')], [])).toThrow(/1 episodes but 0 advantages/);
  });
});
