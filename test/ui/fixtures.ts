// Hand-made step records and runs for the figure's tests.
import type { GrpoStepView } from '../../src/protocol/messages';
import type { EpisodeView } from '../../src/protocol/episode-view';
import { PLATE_SETTINGS } from '../../src/pipeline/stages';
import type { RunView } from '../../src/client/worker-state';

const TIMINGS = { sample: 0, logprobs: 0, gradient: 0, evaluate: 0, push: 0, total: 500 };
const SPLIT = { sampling: 200, update: 250, evaluation: 50 };

/** `^23+45=B23+45|68|68|`: prompt, model call, environment result, model answer. */
export function episode(over: Partial<EpisodeView> = {}): EpisodeView {
  return {
    sum: { a: 23, b: 45 },
    text: '^23+45=B23+45|68|68|',
    authors: 'pppppppmmmmmmmeeemmm',
    trained: '00000001111111000111',
    reward: 1,
    correct: true,
    advantage: 0.5,
    lied: false,
    reason: 'answered',
    ...over,
  };
}

export function record(
  step: number,
  heldOut: number,
  meanReward: number | null,
  episodes: EpisodeView[] = [],
): GrpoStepView {
  return {
    step,
    heldOut,
    heldOutCorrect: Math.round(heldOut * 30),
    heldOutN: 30,
    meanReward,
    trueSuccess: meanReward,
    rewardedByBug: 0,
    rewardStd: null,
    zeroSpreadGroups: null,
    correctCallsPushedDown: null,
    clipFraction: null,
    loss: null,
    modelChars: 0,
    envChars: 0,
    trainedChars: 0,
    lies: 0,
    calls: 0,
    copied: 0,
    malformed: 0,
    timings: TIMINGS,
    timeSplit: step === 0 ? { ...SPLIT, sampling: 0, update: 0 } : SPLIT,
    episodes,
    sampled: episodes.length,
  };
}

/** A run of `n` steps after step 0, held-out rising by one sum per 8 steps. */
export function run(runId: number, faulty: boolean, n: number, steps = 40): RunView {
  const records = [record(0, 23 / 30, null)];
  for (let s = 1; s <= n; s++)
    records.push(
      record(
        s,
        (23 + Math.floor(s / 8)) / 30,
        faulty ? 0.5 : 0.7 + s / 400,
        s === n
          ? Array.from({ length: 64 }, (_, i) =>
              episode({ lied: faulty && i % 3 === 0, reward: i % 2, correct: i % 2 === 1, advantage: i % 2 ? 1 : -1 }),
            )
          : [],
      ),
    );
  return {
    runId,
    config: { start: 'agent', seed: 1, steps, ...PLATE_SETTINGS, faulty },
    stages: ['grpo'],
    from: null,
    stage: 'grpo',
    pretrain: [],
    sft: [],
    steps: records,
  };
}
