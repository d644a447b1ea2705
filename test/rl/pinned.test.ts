// Pins a short workshop from the shipped agent checkpoint on the WASM backend, so speed work
// that changes what the trainer computes shows up here. If the checkpoint is retrained or the
// algorithm changes on purpose, update these numbers in the same commit and say why.
// Last re-pinned when checkpoints began storing float16: the agent's weights are rounded, its
// greedy start is still 24 of 30, but sampling follows the weights' last bits: these counts
// match the float32 agent's for two steps and part at the third (reliable 18 → 16 sums, reward
// 41 → 42 of 64; faulty 15 → 16, 33 → 34), and the 40-step run ends at 93%, was 90%.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runWorkshop } from '../../src/node/run-workshop';
import { DEFAULT_SEED } from '../../src/config';
import { useWasm } from '../tf';

beforeAll(useWasm);

async function workshop(faulty: boolean) {
  const { records } = await runWorkshop({ start: 'agent', faulty, seed: 1, steps: 3 });
  return {
    heldOutCorrect: records.map((r) => r.heldOutCorrect),
    rewardTimes64: records.flatMap((r) => (r.meanReward === null ? [] : [Math.round(r.meanReward * 64)])),
  };
}

describe('the shipped workshop, seed 1, WASM, 3 steps', () => {
  it('reproduces the pinned held-out successes and rewards with the reliable calculator', async () => {
    // 24/30 = 80% at the start, as the checkpoint's card says; rewards out of 64 episodes.
    expect(await workshop(false)).toEqual({ heldOutCorrect: [24, 21, 20, 16], rewardTimes64: [43, 48, 42] });
  });

  it('reproduces the pinned held-out successes and rewards with the faulty calculator', async () => {
    expect(await workshop(true)).toEqual({ heldOutCorrect: [24, 22, 19, 16], rewardTimes64: [35, 31, 34] });
  });
});

describe('the default run, 40 steps', () => {
  it('is the precomputed reference run of its seed, step for step (the page’s band and notes read those runs)', async () => {
    const reference = JSON.parse(
      readFileSync(resolve(import.meta.dirname, '../../public/reference-runs.json'), 'utf8'),
    );
    // The plate's settings: a run records only the settings that are not the plate's (and these three).
    type StoredRun = {
      seed: number;
      faulty: boolean;
      masking: boolean;
      advantage: string;
      grader?: string;
      updatesPerBatch?: number;
      heldOut: number[];
      meanReward: number[];
    };
    const plateRun = (faulty: boolean): StoredRun =>
      reference.runs.find(
        (r: StoredRun) =>
          r.seed === DEFAULT_SEED &&
          r.faulty === faulty &&
          r.masking &&
          r.advantage === 'group' &&
          !r.grader &&
          !r.updatesPerBatch,
      );
    const reliable = plateRun(false);
    const { heldOut, meanReward } = await runWorkshop({ seed: DEFAULT_SEED, steps: 40 });
    const r4 = (xs: number[]) => xs.map((x) => Math.round(x * 1e4) / 1e4); // as reference-runs.json stores them
    expect({ heldOut: r4(heldOut), meanReward: r4(meanReward) }).toEqual({
      heldOut: reliable.heldOut,
      meanReward: reliable.meanReward,
    });
    // The default seed is the one nearest the plate: 80% → 83% (the plate's 77% → 83%), the
    // reward over the last five steps within 5 points of its 81% (docs/results.md).
    expect([heldOut[0], heldOut[40]]).toEqual([0.8, 25 / 30]);
    expect(Math.abs(meanReward.slice(-5).reduce((s, x) => s + x, 0) / 5 - 0.81)).toBeLessThan(0.05);
    // With the faulty calculator the same seed's reward stays capped (the plate: near 50%).
    const faulty = plateRun(true);
    expect(faulty.meanReward.slice(-5).reduce((s: number, x: number) => s + x, 0) / 5).toBeLessThanOrEqual(0.62);
  }, 120_000);
});
