// Hand-made step records and runs for the figure's tests.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { GrpoStepView } from '../../src/protocol/episode-view';
import type { EpisodeView } from '../../src/protocol/episode-view';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import { INITIAL_STATE, type RunView } from '../../src/client/worker-state';
import { DEFAULT_SEED } from '../../src/config';
import { PLATE } from '../../src/plate/text';
import type { WorkerState } from '../../src/client/worker-state';
import { Figure, type FigureProps } from '../../src/ui/figure/Figure';
import type { Parts } from '../../src/ui/figure/parts/useParts';

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
    // A sampled step's vital signs (step 0 samples nothing): entropy falling, one failed call in 32.
    rewardStd: step === 0 ? null : 0.4,
    zeroSpreadGroups: step === 0 ? null : 0.25,
    allFailGroups: step === 0 ? null : 0.125,
    allPassGroups: step === 0 ? null : 0.125,
    clip: step === 0 ? null : { low: 0, high: 0, region: 0 },
    entropy: step === 0 ? null : 0.4 - step / 200,
    correctCallsPushedDown: step === 0 ? null : 0.1,
    loss: null,
    modelChars: step === 0 ? 0 : 64 * 13,
    envChars: 0,
    trainedChars: 0,
    lies: 0,
    calls: step === 0 ? 0 : 62,
    failedCalls: step === 0 ? 0 : 2,
    copied: 0,
    malformed: 0,
    timings: TIMINGS,
    timeSplit: step === 0 ? { ...SPLIT, sampling: 0, update: 0 } : SPLIT,
    episodes,
    sampled: step === 0 ? 0 : 64,
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
    config: { seed: 1, steps, ...PLATE_SETTINGS, faulty },
    stages: ['grpo'],
    from: null,
    stage: 'grpo',
    pretrain: [],
    sft: [],
    steps: records,
  };
}

const noop = () => {};

/** Every part open: a render test sees each part's body. */
const ALL_OPEN: Parts = { isOpen: () => true, set: noop, reveal: noop, register: noop };

/** The figure's props at Ready with no run, the plate's settings: each test overrides what it shows. */
export const FIGURE_PROPS: FigureProps = {
  plate: PLATE,
  worker: { ...INITIAL_STATE, status: 'ready', loading: null },
  run: null,
  previous: [],
  settings: { ...PLATE_SETTINGS },
  seed: DEFAULT_SEED,
  totalSteps: 40,
  reference: null,
  referenceThreeCalls: null,
  onClaimsNear: noop,
  sequence: null,
  onRunEveryLength: noop,
  notes: [],
  onRun: noop,
  onPause: noop,
  onStep: noop,
  onReset: noop,
  onSettings: noop,
  onSeed: noop,
  onRestart: noop,
  onAsk: noop,
  parts: ALL_OPEN,
};

/** The figure's markup with FIGURE_PROPS overridden; `worker` overrides the worker's state field by field. */
export const renderFigure = (over: Partial<Omit<FigureProps, 'worker'>> & { worker?: Partial<WorkerState> }): string =>
  renderToStaticMarkup(
    createElement(Figure, { ...FIGURE_PROPS, ...over, worker: { ...FIGURE_PROPS.worker, ...over.worker } }),
  );
