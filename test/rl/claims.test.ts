// The closing claims' verdicts, against hand-made per-seed figures at one, two and three calls:
// each verdict from the values it is computed from, the claim's way flipping it, and the
// tolerance rule (a step within the seeds' standard error is flat).
import { describe, expect, it } from 'vitest';
import { CLAIMS, claimFigure, claimTrend, claimVerdict, stepWays } from '../../src/rl/claims';

/** Five seeds around `m`, spread ±0.01 (standard error of their mean ≈ 0.0032). */
const seeds = (m: number): number[] => [m - 0.01, m - 0.005, m, m + 0.005, m + 0.01];
const lengths = (...means: number[]) => means.map(seeds);

describe('a claim’s verdict over one, two and three calls', () => {
  it('grows: every step moves the plate’s way, up for a claim of more, down for a claim of less', () => {
    expect(claimVerdict('up', lengths(0.03, 0.07, 0.12))).toBe('grows');
    expect(claimVerdict('down', lengths(0.7, 0.49, 0.34))).toBe('grows');
  });

  it('grows then flattens: the first step the plate’s way, the next within the seeds’ noise', () => {
    expect(claimVerdict('up', lengths(0.03, 0.07, 0.072))).toBe('grows then flattens');
    expect(claimVerdict('down', lengths(0.9, 0.85, 0.848))).toBe('grows then flattens');
  });

  it('does not grow: a step against the plate’s way, a flat start, or no change at all', () => {
    expect(claimVerdict('up', lengths(0.03, 0.07, 0.05))).toBe('does not grow'); // peaks at two calls
    expect(claimVerdict('up', lengths(0.07, 0.071, 0.12))).toBe('does not grow'); // flat, then grows
    expect(claimVerdict('up', lengths(0.05, 0.05, 0.05))).toBe('does not grow');
    expect(claimVerdict('down', lengths(0.34, 0.49, 0.7))).toBe('does not grow');
  });

  it('flips with the claim’s way: the same figures grow as a claim of more and do not as a claim of less', () => {
    const rising = lengths(0.1, 0.2, 0.3);
    expect(claimVerdict('up', rising)).toBe('grows');
    expect(claimVerdict('down', rising)).toBe('does not grow');
    const falling = lengths(0.3, 0.2, 0.2);
    expect(claimVerdict('down', falling)).toBe('grows then flattens');
    expect(claimVerdict('up', falling)).toBe('does not grow');
  });

  it('calls a step flat when it is within the standard error of the difference, and not when it is beyond it', () => {
    // Seeds 0.1 apart: each mean's standard error is 0.1/√3 ≈ 0.0577, the difference's √2 times that ≈ 0.0816.
    const wide = (m: number) => [m - 0.1, m, m + 0.1];
    expect(stepWays('up', [wide(0.3), wide(0.38)])).toEqual(['flat']);
    expect(stepWays('up', [wide(0.3), wide(0.383)])).toEqual(['plate']);
    expect(stepWays('up', [wide(0.3), wide(0.217)])).toEqual(['against']);
    // One seed: no spread to measure, so every difference counts.
    expect(stepWays('down', [[0.5], [0.499]])).toEqual(['plate']);
  });

  it('works over two lengths, and refuses fewer', () => {
    expect(claimVerdict('up', lengths(0.03, 0.07))).toBe('grows');
    expect(claimVerdict('up', lengths(0.03, 0.031))).toBe('does not grow');
    expect(() => claimVerdict('up', lengths(0.03))).toThrow(/two lengths or more/);
  });
});

describe('the claims', () => {
  const byName = (name: string) => CLAIMS.find((c) => c.name === name)!;

  it('are the plate’s five, and the all-paid groups beside them with no claim', () => {
    expect(CLAIMS.map((c) => [c.name, c.way])).toEqual([
      ['reward', 'down'],
      ['allFail', 'up'],
      ['allPass', null],
      ['pushedDown', 'up'],
      ['pushedDownFaulty', 'up'],
      ['faultyCap', 'down'],
    ]);
    expect(claimTrend(byName('allPass'), lengths(0.6, 0.5, 0.4))).toEqual({
      values: [0.6, 0.5, 0.4].map((m) => expect.closeTo(m, 10)),
      verdict: null,
    });
  });

  it('read a seed’s figure as a mean over the steps, with the claim’s calculator', () => {
    const runs = {
      reliable: { meanReward: [0.8, 0.9], correctCallsPushedDown: [0.02, 0.04] },
      faulty: { meanReward: [0.5, 0.6], correctCallsPushedDown: [0.3, 0.5] },
    };
    expect(claimFigure(byName('reward'), runs)).toBeCloseTo(0.85);
    expect(claimFigure(byName('pushedDown'), runs)).toBeCloseTo(0.03);
    expect(claimFigure(byName('pushedDownFaulty'), runs)).toBeCloseTo(0.4);
    expect(claimFigure(byName('faultyCap'), runs)).toBeCloseTo(0.55 / 0.85);
    expect(claimFigure(byName('allFail'), runs)).toBeNull(); // a curve the runs lack
  });

  it('give the faulty ÷ reliable reward the verdict the plate’s 0.7ᵏ would earn', () => {
    const { values, verdict } = claimTrend(byName('faultyCap'), lengths(0.7, 0.49, 0.343));
    expect(values.map((v) => Math.round(v * 1000) / 1000)).toEqual([0.7, 0.49, 0.343]);
    expect(verdict).toBe('grows');
  });
});
