// `npm run longer-episode -- --scale`: the scale model from the shipped reference runs, no
// training — one JSON line with the fields the page draws, the same numbers rl/scale.ts computes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scaleReport, type ScaleRun } from '../../src/rl/scale';
import { lastJson, tsx } from './run-script';

const RUNS = (JSON.parse(readFileSync('public/reference-runs-three-calls.json', 'utf8')) as { runs: ScaleRun[] }).runs;

describe('longer-episode --scale', () => {
  it('prints one JSON line: q and its interval, the check at three calls, 300 predictions and the half crossing', () => {
    const r = tsx('longer-episode', '--scale', '--json');
    expect(r.code, r.err).toBe(0);
    expect(r.out.split('\n')).toHaveLength(1);
    const j = lastJson(r.out);
    const want = scaleReport(RUNS, { latencies: [0, 50, 200], maxCalls: 300 })!;
    expect(j.perCallSuccess.q).toBeCloseTo(want.perCallSuccess.q, 4);
    expect(j.heldOutCheck).toMatchObject({ calls: 3, holds: want.heldOutCheck.holds });
    for (const k of ['predicted', 'measured', 'se'] as const)
      expect(Object.keys(j.heldOutCheck[k]).sort()).toEqual(['allFail', 'reward']);
    expect(j.predictions).toHaveLength(300);
    expect(Object.keys(j.predictions[0])).toEqual([
      'calls',
      'reward',
      'allFail',
      'allPass',
      'pushedDown',
      'faultyRatio',
      'samplingShare',
    ]);
    expect(Object.keys(j.predictions[0].samplingShare)).toEqual(['0', '50', '200']);
    expect(j.halfAllFailAt).toBe(want.halfAllFailAt);
  });

  it('prints a readable table without --json, and refuses the options a training run takes', () => {
    const r = tsx('longer-episode', '--scale');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/per-call success q = 0\.\d{4} \(95% over the seeds: /);
    expect(r.out).toMatch(/^\| 300 \| /m);
    const bad = tsx('longer-episode', '--scale', '--seeds', '1');
    expect(bad.code).toBe(1);
    expect(bad.err).toBe(
      'error: --scale reads the shipped reference runs (seeds 1–5, 40 steps, one to three calls): --calls, --seeds and --steps do not apply',
    );
  });
});
