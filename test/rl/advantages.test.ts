import { describe, expect, it } from 'vitest';
import { batchAdvantages, groupAdvantages, groupStats } from '../../src/rl/advantages';

const GRPO = { scaleByStd: true, stdEps: 1e-4 };
const DR_GRPO = { scaleByStd: false, stdEps: 1e-4 };

describe('group-relative advantages', () => {
  it('are reward minus the group mean over the group std', () => {
    // rewards 1,1,0,0: mean 0.5, population std 0.5 → ±1 (less a hair for ε)
    const adv = groupAdvantages([1, 1, 0, 0], GRPO);
    adv.forEach((a, i) => expect(a).toBeCloseTo(i < 2 ? 0.5 / 0.5001 : -0.5 / 0.5001, 10));
  });

  it('of one success among eight reward it strongly and the failures mildly', () => {
    const adv = groupAdvantages([0, 0, 0, 1, 0, 0, 0, 0], GRPO);
    const std = Math.sqrt(7) / 8;
    expect(adv[3]).toBeCloseTo(0.875 / (std + 1e-4), 8);
    expect(adv[0]).toBeCloseTo(-0.125 / (std + 1e-4), 8);
    expect(adv.reduce((s, a) => s + a, 0)).toBeCloseTo(0, 10);
  });

  it('are exactly zero, never NaN, for a group whose rewards are all equal', () => {
    for (const r of [0, 1]) {
      expect(groupAdvantages(Array(8).fill(r), GRPO)).toEqual(Array(8).fill(0));
      expect(groupAdvantages(Array(8).fill(r), DR_GRPO)).toEqual(Array(8).fill(0));
    }
    expect(groupStats([1, 1, 1]).zeroSpread).toBe(true);
  });

  it('skip the std division in Dr. GRPO', () => {
    expect(groupAdvantages([1, 0, 0, 0], DR_GRPO)).toEqual([0.75, -0.25, -0.25, -0.25]);
  });

  it('are computed group by group over a batch', () => {
    const adv = batchAdvantages([1, 0, 1, 1], 2, DR_GRPO);
    expect(adv).toEqual([0.5, -0.5, 0, 0]);
    expect(() => batchAdvantages([1, 0, 1], 2, DR_GRPO)).toThrow(/groups of 2/);
  });
});
