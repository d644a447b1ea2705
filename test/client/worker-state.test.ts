import { describe, expect, it } from 'vitest';
import type { RunBegin, WorkerEvent } from '../../src/protocol/messages';
import type { RunConfig } from '../../src/pipeline/settings';
import type { Stage } from '../../src/pipeline/stages';
import type { GrpoStepView } from '../../src/protocol/episode-view';
import type { SupervisedRecord } from '../../src/agent/stage';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import {
  INITIAL_STATE,
  MAX_PREVIOUS,
  pageTransition,
  pageTransitions,
  type ClientEvent,
  type WorkerState,
} from '../../src/client/worker-state';
import type { SupervisedStageName } from '../../src/agent/stage';

const record = (step: number, totalMs = 500): GrpoStepView => ({
  step,
  heldOut: 0.5,
  heldOutCorrect: 15,
  heldOutN: 30,
  meanReward: step === 0 ? null : 0.5,
  trueSuccess: step === 0 ? null : 0.5,
  rewardedByBug: 0,
  rewardStd: null,
  zeroSpreadGroups: null,
  allFailGroups: null,
  allPassGroups: null,
  correctCallsPushedDown: null,
  clip: null,
  entropy: null,
  loss: null,
  modelChars: 0,
  envChars: 0,
  trainedChars: 0,
  lies: 0,
  calls: 0,
  failedCalls: 0,
  copied: 0,
  malformed: 0,
  timings: { sample: 0, logprobs: 0, gradient: 0, evaluate: 0, push: 0, total: totalMs },
  timeSplit: { sampling: 0, update: 0, evaluation: totalMs },
  episodes: [],
  sampled: step === 0 ? 0 : 64,
});
const supervised = (stage: SupervisedStageName, step: number, ms = 50): SupervisedRecord => ({
  stage,
  step,
  steps: 200,
  loss: step === 0 ? null : 1,
  heldOut: null,
  worksheet: null,
  ms,
});
const memory = { numTensors: 92, numBytes: 1 };
const config = (over: Partial<RunConfig> = {}): RunConfig => ({
  seed: 1,
  steps: 3,
  ...PLATE_SETTINGS,
  ...over,
});
const ready: WorkerEvent = {
  type: 'ready',
  backend: 'wasm',
  reason: 'r',
  skipped: [],
  loadMs: 10,
  checkpointHeldOut: 0.8,
  kernels: 'fused',
  engine: { webAssembly: 'simd', jsSlowdown: null },
};
const started = (
  runId: number,
  over: Partial<RunConfig> = {},
  stages: Stage[] = ['grpo'],
  from: number | null = null,
  begin: RunBegin = 'running',
): WorkerEvent => ({ type: 'started', runId, config: config(over), stages, from, begin });
const step = (runId: number, n: number, ms?: number, over: Partial<RunConfig> = {}): WorkerEvent => ({
  type: 'step',
  runId,
  config: config(over),
  stage: 'grpo',
  record: record(n, ms),
  memory,
});
const sup = (runId: number, stage: SupervisedStageName, n: number, ms?: number): WorkerEvent => ({
  type: 'step',
  runId,
  config: config(),
  stage,
  record: supervised(stage, n, ms),
  memory,
});
const done = (runId: number): WorkerEvent => ({
  type: 'done',
  runId,
  summary: { heldOutStart: 0.5, heldOutEnd: 0.5, rewardFirst5: 0.5, rewardLast5: 0.5, seconds: 1 },
  sftHeldOut: null,
  agentDigest: null,
  stageSeconds: { grpo: 1 },
});
const fold = (...events: ClientEvent[]): WorkerState => pageTransitions(INITIAL_STATE, events);

describe('the trainer state', () => {
  it('appends the steps of the live run in order, a batch at a time', () => {
    const s1 = fold(ready, started(1), step(1, 0), step(1, 1));
    const s2 = pageTransitions(s1, [step(1, 2), step(1, 3)]);
    expect(s2.status).toBe('running');
    expect(s2.run!.steps.map((r) => r.step)).toEqual([0, 1, 2, 3]);
    expect(s1.run!.steps).toHaveLength(2); // the earlier state is not mutated
    expect(s2.memory).toEqual(memory);
  });

  it('holds how far the live run’s next record has got, until that record comes (a step that reports its parts)', () => {
    const progress = (runId: number, n: number, done: number): WorkerEvent => ({
      type: 'progress',
      runId,
      stage: 'grpo',
      step: n,
      phase: 'update',
      done,
      of: 100,
      perStep: 100,
      ms: 10 * done,
    });
    const s1 = fold(ready, started(1), progress(1, 0, 20));
    expect(s1.inFlight).toEqual({ stage: 'grpo', step: 0, phase: 'update', done: 20, of: 100, perStep: 100, ms: 200 });
    const s2 = pageTransitions(s1, [progress(1, 0, 60), step(1, 0)]);
    expect(s2.inFlight).toBeNull();
    // A replaced run's word, or a replay's of a step already drawn, is not the next record's.
    expect(pageTransitions(s2, [progress(2, 1, 5), progress(1, 0, 5)]).inFlight).toBeNull();
    expect(pageTransitions(s2, [progress(1, 1, 5)]).inFlight).toMatchObject({ step: 1, done: 5 });
    expect(pageTransitions(s2, [progress(1, 1, 5), { type: 'clear' }]).inFlight).toBeNull();
  });

  it('keeps what the idle warm-up did beside what loading took, and nothing before Ready', () => {
    const warmed: WorkerEvent = { type: 'warmed', ms: 700, slices: [400, 100, 100, 100], complete: true };
    expect(fold(ready, warmed).ready).toMatchObject({ loadMs: 10, warmUp: { ms: 700, complete: true } });
    expect(fold(warmed).ready).toBeNull();
  });

  it('files each stage’s records under it and follows the stage of the latest', () => {
    const s = fold(
      ready,
      started(1, { start: 'scratch' }, ['pretrain', 'sft', 'grpo']),
      sup(1, 'pretrain', 0),
      sup(1, 'pretrain', 1),
      sup(1, 'sft', 0),
    );
    expect(s.run!.pretrain.map((r) => r.step)).toEqual([0, 1]);
    expect(s.run!.sft.map((r) => r.step)).toEqual([0]);
    expect(s.run!.stage).toBe('sft');
    expect(s.run!.steps).toEqual([]);
  });

  it('measures steps per second over the current stage’s last steps, ignoring its measuring step 0', () => {
    expect(fold(ready, started(1), step(1, 0, 9000), step(1, 1, 250), step(1, 2, 250)).stepsPerSecond).toBe(4);
    expect(
      fold(ready, started(1, {}, ['sft', 'grpo']), sup(1, 'sft', 0, 900), sup(1, 'sft', 1, 50)).stepsPerSecond,
    ).toBe(20);
  });

  it('gives a run that restarts GRPO from another run’s agent that run’s earlier stages', () => {
    const s = fold(
      ready,
      started(1, { start: 'pretrained' }, ['sft', 'grpo']),
      sup(1, 'sft', 0),
      sup(1, 'sft', 1),
      step(1, 0),
      started(2, { start: 'pretrained', faulty: true }, ['grpo'], 1),
    );
    expect(s.run).toMatchObject({ runId: 2, from: 1, stage: 'grpo', steps: [] });
    expect(s.run!.sft.map((r) => r.step)).toEqual([0, 1]);
    expect(s.previous.map((r) => [r.runId, r.end])).toEqual([[1, 'stopped']]);
  });

  it('takes new GRPO settings for the live run', () => {
    const s = fold(ready, started(1, { start: 'pretrained' }, ['sft', 'grpo']), {
      type: 'configured',
      runId: 1,
      config: config({ start: 'pretrained', faulty: true }),
    });
    expect(s.run!.config.faulty).toBe(true);
  });

  it('drops steps of a run that was replaced', () => {
    const s = fold(ready, started(1), step(1, 0), started(2), step(1, 1), step(2, 0));
    expect(s.run!.runId).toBe(2);
    expect(s.run!.steps).toHaveLength(1);
  });

  it('keeps a finished run as a previous one when the next starts, so it can be drawn dimmed', () => {
    const s = fold(ready, started(1), step(1, 0), step(1, 1), done(1), started(2, { faulty: true }));
    expect(s.previous).toHaveLength(1);
    expect(s.previous[0]).toMatchObject({
      runId: 1,
      end: 'done',
      config: { faulty: false },
      stageSeconds: { grpo: 1 },
    });
    expect(s.run).toMatchObject({ runId: 2, steps: [], config: { faulty: true } });
  });

  it('marks a replaced run as stopped; a run without records leaves nothing behind', () => {
    const s = fold(ready, started(1), step(1, 0), started(2), started(3));
    expect(s.previous.map((r) => [r.runId, r.end])).toEqual([[1, 'stopped']]);
  });

  it('drops every run on Reset, the live one and the earlier ones, as soon as the reader asks', () => {
    const two = fold(ready, started(1), step(1, 0), step(1, 1), done(1), started(2, { faulty: true }), step(2, 0));
    const cleared = pageTransition(two, { type: 'clear' });
    expect(cleared.commands).toEqual([{ type: 'reset' }]);
    expect(cleared.state).toMatchObject({ run: null, previous: [] });
    const late = pageTransitions(cleared.state, [step(2, 1), { type: 'reset' }]); // the cleared run's last record, then the worker's answer
    expect(late).toMatchObject({ status: 'ready', run: null, previous: [] });
  });

  it('keeps an earlier run’s figures and its rates’ denominators, not its episodes; the live run keeps its own', () => {
    const withEpisodes = (runId: number, n: number): WorkerEvent => {
      const e = step(runId, n) as Extract<WorkerEvent, { type: 'step'; stage: 'grpo' }>;
      return {
        ...e,
        record: {
          ...e.record,
          copied: 16,
          episodes: Array.from({ length: 64 }, () => ({
            sum: { a: 23, b: 45 },
            text: '^23+45=B23+45|68|68|',
            authors: 'pppppppmmmmmmmeeemmm',
            trained: '00000001111111000111',
            reward: 1,
            correct: true,
            advantage: 0,
            lied: false,
            reason: 'answered' as const,
          })),
        },
      };
    };
    const s = fold(
      ready,
      started(1),
      step(1, 0),
      withEpisodes(1, 1),
      withEpisodes(1, 2),
      started(2),
      withEpisodes(2, 1),
    );
    expect(s.previous[0]!.steps.map((r) => [r.step, r.episodes.length, r.sampled, r.copied])).toEqual([
      [0, 0, 0, 0],
      [1, 0, 64, 16],
      [2, 0, 64, 16],
    ]);
    expect(s.run!.steps[0]!.episodes).toHaveLength(64);
  });

  it('sends a setting only while a run goes: before one (at Ready, after Reset, while loading) and after one it waits for Run', () => {
    const faulty = { type: 'configure', config: config({ faulty: true }) } as const;
    expect(pageTransition(fold(ready), faulty).commands).toEqual([]);
    expect(pageTransition(INITIAL_STATE, faulty).commands).toEqual([]);
    const afterReset = fold(ready, started(1), step(1, 0), done(1), { type: 'clear' });
    expect(pageTransition(afterReset, faulty).commands).toEqual([]); // the worker's reset has not even arrived
    expect(pageTransition(pageTransitions(afterReset, [{ type: 'reset' }]), faulty).commands).toEqual([]);
    const finished = fold(ready, started(1), step(1, 0), done(1));
    expect(pageTransition(finished, faulty).commands).toEqual([]); // after a run: it waits, no run nobody asked for
    const failed = fold(ready, started(1), step(1, 0), { type: 'error', kind: 'internal', message: 'x', runId: 1 });
    expect(pageTransition(failed, faulty).commands).toEqual([]);
    expect(pageTransition(fold(ready, { type: 'run', config: config() }), faulty).commands).toEqual([faulty]); // a start on its way takes it
    expect(pageTransition(fold(ready, started(1), step(1, 0)), faulty).commands).toEqual([faulty]); // during a run: at the next step
  });

  it('runs the waiting settings on Run after a finished run, GRPO again from its agent where the pipeline holds', () => {
    const finished = fold(ready, started(1), step(1, 0), done(1));
    const faulty = config({ faulty: true });
    expect(pageTransition(finished, { type: 'run', config: faulty }).commands).toEqual([
      { type: 'configure', config: faulty },
    ]);
    // Another start or seed needs another agent: a fresh run.
    const scratch = config({ start: 'scratch' });
    expect(pageTransition(finished, { type: 'run', config: scratch }).commands).toEqual([
      { type: 'start', config: scratch },
    ]);
    // Held out of view, it begins paused.
    const held = pageTransitions(finished, [{ type: 'hold', holder: 'out of view' }]);
    expect(pageTransition(held, { type: 'run', config: faulty }).commands).toEqual([
      { type: 'configure', config: faulty },
      { type: 'pause' },
    ]);
  });

  it(`keeps at most ${MAX_PREVIOUS} previous runs, the latest ones`, () => {
    const events = Array.from({ length: 10 }, (_, i) => [started(i + 1), step(i + 1, 0)]).flat();
    const s = fold(ready, ...events);
    expect(s.previous.map((r) => r.runId)).toEqual([4, 5, 6, 7, 8, 9]);
  });

  it('keeps the steps so far when a run stops on an error', () => {
    const s = fold(ready, started(1), step(1, 0), {
      type: 'error',
      kind: 'non-finite-loss',
      message: 'The loss became NaN at step 1',
      runId: 1,
    });
    expect(s.status).toBe('error');
    expect(s.error).toEqual({ kind: 'non-finite-loss', message: 'The loss became NaN at step 1' });
    expect(s.run).toMatchObject({ end: 'error' });
    expect(s.run!.steps).toHaveLength(1);
  });

  it('says “pausing” as soon as the reader asks, then follows the worker', () => {
    const running = fold(ready, started(1), step(1, 0));
    const pausing = pageTransitions(running, [{ type: 'pause' }]);
    expect(pausing.status).toBe('pausing');
    expect(pageTransitions(pausing, [step(1, 1), { type: 'paused', runId: 1, stage: 'grpo', step: 1 }]).status).toBe(
      'paused',
    );
    expect(pageTransitions(pausing, [step(1, 3), done(1)]).status).toBe('done');
    expect(pageTransitions(fold(ready), [{ type: 'pause' }]).status).toBe('ready');
  });

  it('stays “pausing” when the pause travelled with a start that replaced the run, until the worker pauses it', () => {
    const pausing = pageTransitions(fold(ready, started(1), step(1, 0)), [{ type: 'pause' }]);
    const restarted = pageTransitions(pausing, [started(2, { faulty: true }, ['grpo'], 1, 'pausing')]);
    expect(restarted.status).toBe('pausing');
    expect(pageTransitions(restarted, [step(2, 0), { type: 'paused', runId: 2, stage: 'grpo', step: 0 }]).status).toBe(
      'paused',
    );
    expect(fold(ready, started(1)).status).toBe('running');
  });

  it('labels a run by the settings its GRPO records were trained with', () => {
    const s = fold(
      ready,
      started(1, { start: 'pretrained' }, ['sft', 'grpo']),
      sup(1, 'sft', 0),
      step(1, 0, 500, { start: 'pretrained', faulty: true }),
    );
    expect(s.run!.config).toEqual(config({ start: 'pretrained', faulty: true }));
  });

  it('shows the backend in use and its own reason after a switch', () => {
    const s1 = fold(ready, started(1), step(1, 0), { type: 'paused', runId: 1, stage: 'grpo', step: 0 });
    expect(s1.status).toBe('paused');
    const switched: WorkerEvent = {
      type: 'backend-switched',
      runId: 1,
      from: 'wasm',
      to: 'cpu',
      cause: 'lost; continuing on CPU',
      reason: 'the plain-JavaScript CPU backend: …',
      skipped: [],
      engine: { webAssembly: 'none', jsSlowdown: 40 },
      stage: 'grpo',
      step: 0,
      replayed: true,
    };
    const s2 = pageTransitions(s1, [{ type: 'resumed', runId: 1, stage: 'grpo', step: 0 }, switched]);
    expect(s2.status).toBe('running');
    expect(s2.ready!.backend).toBe('wasm');
    expect(s2.backend).toEqual({
      backend: 'cpu',
      reason: 'the plain-JavaScript CPU backend: …',
      skipped: [],
      engine: { webAssembly: 'none', jsSlowdown: 40 },
    });
    expect(s2.lastSwitch).toEqual({
      from: 'wasm',
      to: 'cpu',
      cause: 'lost; continuing on CPU',
      stage: 'grpo',
      step: 0,
    });
  });

  it('says so when the worker dies, keeping what was streamed', () => {
    const s = fold(ready, started(1), step(1, 0), { type: 'died', message: 'The training worker stopped: boom.' });
    expect(s.status).toBe('dead');
    expect(s.error).toEqual({ kind: 'worker', message: 'The training worker stopped: boom.' });
    expect(s.run!.steps).toHaveLength(1);
  });

  it('follows a Step: stepping from Ready or from paused, then paused; a pause asked meanwhile changes nothing', () => {
    const fromReady = fold(
      ready,
      { type: 'single-step', config: config() },
      started(1, {}, ['grpo'], null, 'stepping'),
    );
    expect(fromReady.status).toBe('stepping');
    const paused = pageTransitions(fromReady, [
      step(1, 0),
      step(1, 1),
      { type: 'paused', runId: 1, stage: 'grpo', step: 1 },
    ]);
    expect(paused.status).toBe('paused');
    const again = pageTransitions(paused, [{ type: 'stepping', runId: 1, stage: 'grpo', step: 1 }]);
    expect(again.status).toBe('stepping');
    expect(pageTransition(again, { type: 'pause' })).toEqual({ state: again, commands: [] }); // the step ends in a pause already
    expect(pageTransitions(again, [{ type: 'stepping', runId: 9, stage: 'grpo', step: 1 }])).toBe(again); // another run's
  });

  it('keeps the asks waiting until their answer, the latest answer, and drops the waiting ones when the worker dies', () => {
    const q = (id: number) => ({ id, sum: { a: 57, b: 38 }, faulty: false, temperature: 1 as const });
    const asked = fold(ready, { type: 'ask', question: q(1) }, { type: 'ask', question: q(2) });
    expect(asked.asks.waiting.map((x) => x.id)).toEqual([1, 2]);
    const answer = { id: 1, sum: q(1).sum, error: 'The agent could not answer: boom' };
    const one = pageTransitions(asked, [{ type: 'answer', answer }]);
    expect(one.asks).toEqual({ waiting: [q(2)], answer });
    expect(one.status).toBe('ready'); // asking changes nothing else
    expect(pageTransitions(one, [{ type: 'died', message: 'gone' }]).asks).toEqual({ waiting: [], answer });
  });
});
