// Pins a short three-call workshop from the shipped three-call agent on the WASM backend, as
// pinned.test.ts pins the one-call one: speed work that changes what the trainer computes in the
// longest episode shows up here. Its first steps are also the first steps of the reference file's
// run of the same seed and settings (public/reference-runs-three-calls.json), checked here, so the
// file and the agent cannot drift apart. If the three-call agent is retrained or the algorithm
// changes on purpose, update these numbers and the file in the same commit and say why.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runWorkshop } from '../../src/node/run-workshop';
import { useWasm } from '../tf';

beforeAll(useWasm);

interface StoredRun {
  seed: number;
  episode: string;
  agent: string;
  faulty: boolean;
  masking: boolean;
  advantage: string;
  grader?: string;
  heldOut: number[];
  meanReward: number[];
  zeroSpreadGroups: number[];
  correctCallsPushedDown: number[];
}
const REFERENCE = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../public/reference-runs-three-calls.json'), 'utf8'),
) as { runs: StoredRun[] };

async function workshop(faulty: boolean) {
  const { records } = await runWorkshop({ start: 'agent', faulty, seed: 1, steps: 3, episode: 'three-calls' });
  const stepped = records.slice(1);
  return {
    heldOutCorrect: records.map((r) => r.heldOutCorrect),
    rewardTimes64: stepped.map((r) => Math.round(r.meanReward! * 64)),
    zeroSpreadGroupsOf8: stepped.map((r) => r.zeroSpreadGroups! * 8),
    correctCallsPushedDown: stepped.map((r) => Math.round(r.correctCallsPushedDown! * 1e4) / 1e4),
    liesAndCalls: stepped.map((r) => [r.lies, r.calls]),
  };
}

/** The reference file's run of seed 1 at three calls with the plate's settings, its first 3 steps, as the pin counts them. */
function referenceStart(faulty: boolean) {
  const run = REFERENCE.runs.find(
    (r) =>
      r.seed === 1 &&
      r.episode === 'three-calls' &&
      r.agent === 'three-calls' &&
      r.faulty === faulty &&
      r.masking &&
      r.advantage === 'group' &&
      (r.grader ?? 'exact') === 'exact',
  )!;
  return {
    heldOutCorrect: run.heldOut.slice(0, 4).map((x) => Math.round(x * 30)),
    rewardTimes64: run.meanReward.slice(0, 3).map((x) => Math.round(x * 64)),
    zeroSpreadGroupsOf8: run.zeroSpreadGroups.slice(0, 3).map((x) => Math.round(x * 8)),
    correctCallsPushedDown: run.correctCallsPushedDown.slice(0, 3),
  };
}

/** The pin at the file's precision: the pushed-down share to two places. */
const asStored = (w: Awaited<ReturnType<typeof workshop>>) => ({
  heldOutCorrect: w.heldOutCorrect,
  rewardTimes64: w.rewardTimes64,
  zeroSpreadGroupsOf8: w.zeroSpreadGroupsOf8,
  correctCallsPushedDown: w.correctCallsPushedDown.map((x) => Math.round(x * 1e2) / 1e2),
});

// 16/30 = 53% at the start, as the three-call agent's card says; rewards out of 64 episodes.
const PINNED_RELIABLE = {
  heldOutCorrect: [16, 16, 16, 16],
  rewardTimes64: [52, 57, 55],
  zeroSpreadGroupsOf8: [4, 6, 4],
  correctCallsPushedDown: [0.1613, 0.1094, 0.0984],
  liesAndCalls: [
    [0, 190],
    [0, 192],
    [0, 186],
  ],
};
const PINNED_FAULTY = {
  heldOutCorrect: [16, 15, 18, 16],
  rewardTimes64: [22, 21, 13],
  zeroSpreadGroupsOf8: [0, 0, 2],
  correctCallsPushedDown: [0.6452, 0.6719, 0.5167],
  liesAndCalls: [
    [50, 189],
    [72, 192],
    [48, 179],
  ],
};

describe('the shipped three-call workshop, seed 1, WASM, 3 steps', () => {
  it('reproduces the pinned held-out successes, rewards and per-step figures with the reliable calculator', async () => {
    const w = await workshop(false);
    expect(w).toEqual(PINNED_RELIABLE);
    expect(asStored(w)).toEqual(referenceStart(false));
  }, 60_000);

  it('reproduces them with the faulty calculator, lying at about 30% of the calls', async () => {
    const w = await workshop(true);
    expect(w).toEqual(PINNED_FAULTY);
    expect(asStored(w)).toEqual(referenceStart(true));
  }, 60_000);
});
