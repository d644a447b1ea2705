// The scale model (src/rl/scale.ts): what it does at the ends of q, how it fits q and the sums'
// difficulty, and that its check at three calls is computed from the runs it is given — the
// shipped three-call agent's reference runs, and the same runs changed as a bug would change them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { difficultyFrom, groupShares } from '../../src/rl/scale-groups';
import {
  fitScaleModel,
  heldOutCheck,
  measuredLengths,
  perCallSuccess,
  predictAt,
  scaleReport,
  type MeasuredLength,
  type ScaleModel,
  type ScaleRun,
} from '../../src/rl/scale';
import { fitLine, modelSamplingShare, type StepTime, type TimeFit } from '../../src/rl/scale-time';

const SHIPPED = (JSON.parse(readFileSync('public/reference-runs-three-calls.json', 'utf8')) as { runs: ScaleRun[] })
  .runs;

/** Groups of 8 by paid episodes: most solved, some never, the rest between. */
const PAID = [30, 6, 4, 5, 6, 8, 12, 25, 224];
const TIME: TimeFit = {
  batchMsPerChar: 1,
  updateMsPerChar: 0.05,
  episodeChars: { fixed: 6, per: 15 },
  sampledRows: 64 / 94,
};
const modelWith = (q: number): ScaleModel => ({
  perCallSuccess: { q, lo: q, hi: q },
  anchorCalls: 3,
  difficulty: difficultyFrom(PAID),
  time: TIME,
});
const CALLS = [1, 2, 3, 5, 10, 30, 100, 300];

/** A measured length with the same figures for every seed but the reward, `rewards` by seed. */
function length(calls: number, rewards: number[]): MeasuredLength {
  const time: StepTime = {
    samplingMs: 20,
    updateMs: 40,
    evaluationMs: 9,
    updateChars: 600 * calls,
    episodeChars: 20 * calls,
  };
  return {
    calls,
    seeds: rewards.map((_, i) => i + 1),
    reward: rewards,
    allFail: rewards.map(() => 0.1),
    allPass: rewards.map(() => 0.7),
    pushedDown: rewards.map(() => 0.03),
    faultyRatio: rewards.map(() => 0.7 ** calls),
    samplingShare: rewards.map(() => 0.3),
    paidGroups: PAID,
    times: rewards.map((_, i) => ({ ...time, samplingMs: 20 + 5 * calls + i })),
  };
}

describe('the scale model at the ends of q', () => {
  it('with q = 1 makes nothing grow: reward, all-fail, all-pass and pushed down are the same at every length', () => {
    const m = modelWith(1);
    const at3 = predictAt(m, 3, [0]);
    for (const k of CALLS) {
      const p = predictAt(m, k, [0]);
      for (const f of ['reward', 'allFail', 'allPass', 'pushedDown'] as const) expect(p[f]).toBeCloseTo(at3[f], 12);
    }
  });

  it('fits q = 1 to rewards that do not fall with the calls', () => {
    const flat = [1, 2, 3].map((k) => length(k, [0.8, 0.85, 0.9, 0.82, 0.88]));
    expect(perCallSuccess(flat)).toEqual({ q: 1, lo: 1, hi: 1 });
  });

  it('with q near 0 sends the all-fail groups to 1 and the pushed-down share to 0 past the lengths measured', () => {
    const m = modelWith(0.01);
    for (const k of [5, 10, 100, 300]) {
      const p = predictAt(m, k, [0]);
      expect(p.allFail).toBeGreaterThan(0.999);
      expect(p.pushedDown).toBeLessThan(1e-3);
      expect(p.allPass).toBeLessThan(1e-12);
    }
  });

  it('pushes down a rising, then falling share of correct first calls: groups stop being paid', () => {
    const m = modelWith(0.98);
    const shares = Array.from({ length: 300 }, (_, i) => predictAt(m, i + 1, [0]).pushedDown);
    const peak = shares.indexOf(Math.max(...shares));
    expect(peak).toBeGreaterThan(3);
    expect(peak).toBeLessThan(299);
    expect(shares[peak]).toBeGreaterThan(2 * shares[2]!);
    expect(shares[299]).toBeLessThan(shares[peak]! / 2);
  });

  it('keeps 0.7 of the reward a call with the faulty calculator, whatever q is', () => {
    expect(predictAt(modelWith(0.9), 4, [0]).faultyRatio).toBeCloseTo(0.7 ** 4, 12);
    expect(predictAt(modelWith(1), 4, [0]).faultyRatio).toBeCloseTo(0.7 ** 4, 12);
  });

  it('refuses a q that is not a probability', () => {
    expect(() => groupShares(difficultyFrom(PAID), 1, 0)).toThrow(/q must be in \(0, 1\], got 0/);
    expect(() => groupShares(difficultyFrom(PAID), 1, 1.2)).toThrow(/got 1.2/);
  });
});

describe('fitting the model', () => {
  it('reads q off rewards that fall geometrically with the calls, the interval closing where the seeds agree', () => {
    const decay = [1, 2, 3].map((k) =>
      length(
        k,
        [0.9, 0.8, 0.85, 0.88, 0.82].map((r) => r * 0.95 ** (k - 1)),
      ),
    );
    const q = perCallSuccess(decay);
    expect(q.q).toBeCloseTo(0.95, 12);
    expect(q.hi - q.lo).toBeLessThan(1e-9);
  });

  it('widens the interval with the seeds’ spread of slopes, q inside it', () => {
    const noisy = [1, 2, 3].map((k) =>
      length(
        k,
        [0.95, 0.9, 0.97, 0.93, 0.99].map((q, i) => (0.8 + i / 100) * q ** (k - 1)),
      ),
    );
    const q = perCallSuccess(noisy);
    expect(q.lo).toBeLessThan(q.q);
    expect(q.q).toBeLessThan(q.hi);
  });

  it('explains the groups’ paid counts: its groups all failing and all paid as often as they were', () => {
    const d = difficultyFrom(PAID);
    const total = PAID.reduce((s, x) => s + x, 0);
    const shares = groupShares(d, 1, 1);
    expect(shares.allFail).toBeCloseTo(PAID[0]! / total, 2);
    expect(shares.allPass).toBeCloseTo(PAID[8]! / total, 2);
    const paid = PAID.reduce((s, x, n) => s + x * n, 0) / (8 * total);
    expect(shares.reward).toBeCloseTo(paid, 3);
  });

  it('refuses paid counts with no group in them', () => {
    expect(() => difficultyFrom([0, 0, 0])).toThrow(/no groups to read/);
  });

  it('fits a time line through its points, and refuses one x', () => {
    expect(
      fitLine([
        [1, 7],
        [2, 9],
        [3, 11],
      ]),
    ).toEqual({ fixed: 5, per: 2 });
    expect(() =>
      fitLine([
        [2, 1],
        [2, 3],
      ]),
    ).toThrow(/two different x/);
  });
});

describe('sampling’s share of a step', () => {
  it('grows with the calculator’s latency, and with the calls once the tool is slow', () => {
    const at = (calls: number, ms: number) => modelSamplingShare(TIME, calls, ms, 0.5);
    expect(at(3, 50)).toBeGreaterThan(at(3, 0));
    expect(at(3, 200)).toBeGreaterThan(at(3, 50));
    expect(at(100, 200)).toBeGreaterThan(at(3, 200));
  });

  it('never passes the sampled rows’ share of the batch: the evaluation takes the rest', () => {
    expect(modelSamplingShare(TIME, 300, 200, 0.5)).toBeLessThan(TIME.sampledRows);
  });
});

describe('the check at three calls, from the shipped reference runs', () => {
  const lengths = measuredLengths(SHIPPED)!;

  it('reads one, two and three calls over seeds 1–5 from the file', () => {
    expect(lengths.map((l) => l.calls)).toEqual([1, 2, 3]);
    expect(lengths[0]!.seeds).toEqual([1, 2, 3, 4, 5]);
    for (const l of lengths) expect(l.paidGroups.reduce((s, x) => s + x, 0)).toBe(5 * 40 * 8);
  });

  it('predicts three calls from a fit on one and two alone, and measures it from the three-call runs', () => {
    const check = heldOutCheck(lengths);
    const fit = fitScaleModel(lengths.slice(0, 2));
    const byHand = groupShares(fit.difficulty, fit.perCallSuccess.q, fit.perCallSuccess.q);
    expect(check.calls).toBe(3);
    expect(check.predicted.reward).toBeCloseTo(byHand.reward, 12);
    expect(check.predicted.allFail).toBeCloseTo(byHand.allFail, 12);
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(check.measured.reward).toBeCloseTo(mean(lengths[2]!.reward), 12);
    expect(check.measured.allFail).toBeCloseTo(mean(lengths[2]!.allFail), 12);
    const within = (k: 'reward' | 'allFail') => Math.abs(check.predicted[k] - check.measured[k]) <= 2 * check.se[k];
    expect(check.holds).toBe(within('reward') && within('allFail'));
  });

  it('fails where the three-call runs had paid half as much: the prediction stays, the measurement moves', () => {
    const halved = SHIPPED.map((r) =>
      r.episode === 'three-calls' && !r.faulty ? { ...r, meanReward: r.meanReward.map((x) => x / 2) } : r,
    );
    const before = heldOutCheck(lengths);
    const after = heldOutCheck(measuredLengths(halved)!);
    expect(after.predicted).toEqual(before.predicted);
    expect(after.measured.reward).toBeCloseTo(before.measured.reward / 2, 12);
    expect(after.holds).toBe(false);
  });

  it('predicts otherwise when the two-call runs had paid otherwise', () => {
    const lower = SHIPPED.map((r) =>
      r.episode === 'two-calls' && !r.faulty ? { ...r, meanReward: r.meanReward.map((x) => x * 0.8) } : r,
    );
    expect(heldOutCheck(measuredLengths(lower)!).predicted.reward).toBeLessThan(
      heldOutCheck(lengths).predicted.reward - 0.05,
    );
  });

  it('reads nothing from a file made before the paid counts and time splits were recorded', () => {
    const older = SHIPPED.map(({ paidGroups: _, stepTime: __, ...r }) => r);
    expect(measuredLengths(older)).toBeNull();
    expect(scaleReport(older, { latencies: [0], maxCalls: 10 })).toBeNull();
  });

  it('predicts every call count up to the plate’s hundreds, and names where all-fail groups pass half', () => {
    const r = scaleReport(SHIPPED, { latencies: [0, 50, 200], maxCalls: 300 })!;
    expect(r.predictions.map((p) => p.calls)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(Object.keys(r.predictions[0]!.samplingShare)).toEqual(['0', '50', '200']);
    const half = r.halfAllFailAt;
    if (half !== null) {
      expect(r.predictions[half - 1]!.allFail).toBeGreaterThan(0.5);
      expect(r.predictions.slice(0, half - 1).every((p) => p.allFail <= 0.5)).toBe(true);
    } else expect(r.predictions.every((p) => p.allFail <= 0.5)).toBe(true);
  });
});
