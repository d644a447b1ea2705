// Pins a short two-call workshop from the shipped two-call agent on the WASM backend, as
// pinned.test.ts pins the one-call one: speed work that changes what the trainer computes in the
// longer episode shows up here. If the two-call agent is retrained or the algorithm changes on
// purpose, update these numbers in the same commit and say why.
import { beforeAll, describe, expect, it } from 'vitest';
import { runWorkshop } from '../../src/node/run-workshop';
import { useWasm } from '../tf';

beforeAll(useWasm);

async function workshop(faulty: boolean) {
  const { records } = await runWorkshop({ start: 'agent', faulty, seed: 1, steps: 3, episode: 'two-calls' });
  const stepped = records.slice(1);
  return {
    heldOutCorrect: records.map((r) => r.heldOutCorrect),
    rewardTimes64: stepped.map((r) => Math.round(r.meanReward! * 64)),
    zeroSpreadGroupsOf8: stepped.map((r) => r.zeroSpreadGroups! * 8),
    correctCallsPushedDown: stepped.map((r) => Math.round(r.correctCallsPushedDown! * 1e4) / 1e4),
    liesAndCalls: stepped.map((r) => [r.lies, r.calls]),
  };
}

describe('the shipped two-call workshop, seed 1, WASM, 3 steps', () => {
  it('reproduces the pinned held-out successes, rewards and per-step figures with the reliable calculator', async () => {
    // 25/30 = 83% at the start, as the two-call agent's card says; rewards out of 64 episodes.
    // Re-pinned when the agent was fine-tuned again from the float16 worksheet model (sftSeed 3).
    expect(await workshop(false)).toEqual({
      heldOutCorrect: [25, 28, 28, 28],
      rewardTimes64: [45, 53, 55],
      zeroSpreadGroupsOf8: [6, 6, 4],
      correctCallsPushedDown: [0.0476, 0.0167, 0.1129],
      liesAndCalls: [
        [0, 120],
        [0, 127],
        [0, 125],
      ],
    });
  }, 60_000);

  it('reproduces them with the faulty calculator, lying at about 30% of the calls', async () => {
    expect(await workshop(true)).toEqual({
      heldOutCorrect: [25, 19, 20, 20],
      rewardTimes64: [24, 31, 18],
      zeroSpreadGroupsOf8: [2, 0, 1],
      correctCallsPushedDown: [0.381, 0.4655, 0.6],
      liesAndCalls: [
        [33, 120],
        [33, 124],
        [49, 122],
      ],
    });
  }, 60_000);
});
