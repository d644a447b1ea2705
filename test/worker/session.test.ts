// The worker session in Node with the real model and checkpoints, driven by the order of its
// own events (a command sent when a given event is posted), never by sleeps.
import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type WorkerEvent } from '../../src/protocol/messages';
import type { RunConfig } from '../../src/pipeline/settings';
import { setFused } from '../../src/model/fused/module';
import { GrpoStage } from '../../src/rl/grpo';
import type { BackendRequest } from '../../src/worker/backend-race';
import { useWasm } from '../tf';
import { CHECKPOINT_URLS, config, folder, has, isStep, session } from './session-harness';

beforeAll(useWasm);
afterEach(async () => {
  vi.restoreAllMocks();
  await tf.setBackend('wasm');
});

// Runs of a few steps each, some replayed on the CPU backend: 52 s once for one test with one core
// held busy beside other jobs; the bound is for a session that never ends.
const SESSION_RUNS = { timeout: 180_000 };

describe('a trainer session', SESSION_RUNS, () => {
  it('loads the agent while the backend starts, then streams steps 0..N and a summary of them', async () => {
    const t = session();
    t.init();
    t.s.handle({ type: 'start', config: config() });
    await t.until(has('done'));
    expect(t.types()).toEqual(['loading', 'loading', 'ready', 'started', 'step', 'step', 'step', 'done']);
    expect(t.of('ready')[0]).toMatchObject({ backend: 'wasm', checkpointHeldOut: expect.any(Number) });
    expect(t.of('started')[0]).toMatchObject({ runId: 1, stages: ['grpo'], from: null });
    const done = t.of('done')[0]!;
    expect(done.summary.heldOutEnd).toBe(t.of('step').at(-1)!.record.heldOut);
    expect(done.sftHeldOut).toBeNull();
  });

  it('runs the fused kernels on WASM unless they are switched off (the bench’s unfused runs), says which in ready, and gives the same steps either way', async () => {
    const runs = [];
    for (const kernels of ['fused', 'unfused'] as const) {
      setFused(kernels === 'fused'); // what the worker's entry does for ?kernels=unfused
      const t = session();
      t.init();
      t.s.handle({ type: 'start', config: config() });
      await t.until(has('done'));
      expect(t.of('ready')[0]!.kernels).toBe(kernels);
      runs.push(t.of('step').map((e) => (e.stage === 'grpo' ? [e.record.heldOut, e.record.meanReward] : [])));
    }
    expect(runs[1]).toEqual(runs[0]);
    setFused(true);
  });

  it('runs the worksheet model through fine-tuning into GRPO, and random weights through all three stages', async () => {
    const t = session();
    t.init();
    t.s.handle({ type: 'start', config: config({ start: 'pretrained', steps: 1 }) });
    await t.until(has('done'));
    expect(t.of('started')[0]!.stages).toEqual(['sft', 'grpo']);
    expect(t.steps(1)).toEqual(['sft 0', 'sft 1', 'sft 2', 'grpo 0', 'grpo 1']);
    const sftLast = t.of('step').find((e) => isStep(e, 1, 'sft', 2))!;
    const grpo0 = t.of('step').find((e) => isStep(e, 1, 'grpo', 0))!;
    // GRPO starts from the agent this run fine-tuned: the same weights, the same greedy score.
    expect(grpo0.record).toMatchObject({
      heldOut: (sftLast.record as { heldOut: { success: number } }).heldOut.success,
    });
    expect(t.of('done')[0]!.sftHeldOut).toBe(grpo0.record.heldOut as number);

    t.s.handle({ type: 'start', config: config({ start: 'scratch', steps: 1 }) });
    await t.until(has('done', 2));
    expect(t.of('started')[1]!.stages).toEqual(['pretrain', 'sft', 'grpo']);
    expect(t.steps(2)).toEqual([
      'pretrain 0',
      'pretrain 1',
      'pretrain 2',
      'sft 0',
      'sft 1',
      'sft 2',
      'grpo 0',
      'grpo 1',
    ]);
    const pre = t.of('step').find((e) => isStep(e, 2, 'pretrain', 2))!;
    expect(pre.record).toMatchObject({ worksheet: { n: 100 } });
  });

  it('posts nothing between paused and resumed, and goes on from the next step', async () => {
    const t = session({ onEvent: (e, s) => isStep(e, 1, 'grpo', 1) && s.handle({ type: 'pause' }) });
    t.init();
    t.s.handle({ type: 'start', config: config({ steps: 3 }) });
    await t.until(has('paused'));
    expect(t.of('paused')[0]).toMatchObject({ stage: 'grpo', step: 1 });
    t.s.handle({ type: 'resume' });
    await t.until(has('done'));
    const order = t.types().slice(t.types().indexOf('paused'));
    expect(order).toEqual(['paused', 'resumed', 'step', 'step', 'done']);
    expect(t.steps()).toEqual(['grpo 0', 'grpo 1', 'grpo 2', 'grpo 3']);
  });

  it('repeats a run exactly after a reset: every start begins from its checkpoint', async () => {
    const t = session();
    t.init();
    t.s.handle({ type: 'start', config: config() });
    await t.until(has('done'));
    t.s.handle({ type: 'reset' });
    await t.until(has('reset'));
    t.s.handle({ type: 'start', config: config() });
    await t.until(has('done', 2));
    const numbers = (runId: number) =>
      t
        .of('step')
        .filter((e) => e.runId === runId && e.stage === 'grpo')
        .map((e) => [e.record.heldOut, (e.record as { meanReward: number | null }).meanReward]);
    expect(numbers(2)).toEqual(numbers(1));
  });

  it('restarts GRPO from the run’s own agent on a new calculator, and takes new settings in place before GRPO', async () => {
    // "Fine-tune" the shipped agent for 2 steps, so GRPO's episodes call the calculator and its lies show.
    const t = session({
      urls: { ...CHECKPOINT_URLS, pretrained: CHECKPOINT_URLS.agent },
      onEvent: (e, s) => {
        if (isStep(e, 1, 'sft', 1))
          s.handle({ type: 'configure', config: config({ start: 'pretrained', steps: 3, faulty: true }) });
        if (isStep(e, 1, 'grpo', 2))
          s.handle({ type: 'configure', config: config({ start: 'pretrained', steps: 3, faulty: false }) });
      },
    });
    t.init();
    t.s.handle({ type: 'start', config: config({ start: 'pretrained', steps: 3 }) });
    await t.until((ev) => ev.some((e) => e.type === 'done' && e.runId === 2));
    expect(t.of('configured')).toEqual([
      { type: 'configured', runId: 1, config: config({ start: 'pretrained', steps: 3, faulty: true }) },
    ]);
    const grpo1 = t
      .of('step')
      .filter((e) => e.runId === 1 && e.stage === 'grpo')
      .slice(1);
    expect(grpo1.some((e) => (e.record as { lies: number }).lies > 0)).toBe(true);
    expect(t.of('started')[1]).toMatchObject({ runId: 2, stages: ['grpo'], from: 1, config: { faulty: false } });
    // Run 2 starts where run 1's GRPO started: its fine-tuned agent.
    const start1 = t.of('step').find((e) => isStep(e, 1, 'grpo', 0))!.record.heldOut;
    expect(t.of('step').find((e) => isStep(e, 2, 'grpo', 0))!.record.heldOut).toBe(start1);
  });

  it('stops at the step whose loss is not finite, keeping the steps before it', async () => {
    const t = session({ edit: (f) => f.fill(3e38) }); // logits overflow to ±Inf: the loss is NaN
    t.init();
    t.s.handle({ type: 'start', config: config({ steps: 3 }) });
    await t.until(has('error'));
    expect(t.of('error')[0]).toMatchObject({
      kind: 'non-finite-loss',
      runId: 1,
      message: expect.stringMatching(/^The loss became NaN at step 1/),
    });
    expect(t.steps()).toEqual(['grpo 0']);
  });

  it('says which file is missing when the worksheet model cannot be loaded, and still runs from the agent', async () => {
    const t = session({ urls: { ...CHECKPOINT_URLS, pretrained: folder('nowhere') } });
    t.init();
    t.s.handle({ type: 'start', config: config({ start: 'pretrained' }) });
    await t.until(has('error'));
    expect(t.of('error')[0]).toMatchObject({
      kind: 'checkpoint',
      runId: 1,
      message: expect.stringMatching(/nowhere\/manifest\.json/),
    });
    t.s.handle({ type: 'start', config: config() });
    await t.until(has('done'));
  });

  it('moves a run to the next backend when the device is lost, replaying its stage there', async () => {
    const t = session({ onEvent: (e) => isStep(e, 1, 'grpo', 1) && t.lose('the GPU device was lost (test)') });
    t.init();
    t.s.handle({ type: 'start', config: config({ steps: 3 }) });
    await t.until(has('done'));
    const switched = t.of('backend-switched')[0]!;
    expect(switched).toMatchObject({
      from: 'wasm',
      to: 'cpu',
      runId: 1,
      stage: 'grpo',
      step: 1,
      replayed: true,
      reason: 'cpu in Node',
    });
    expect(switched.cause).toBe(
      'the GPU device was lost (test); continuing on plain JavaScript (CPU); GRPO steps 1–1 were replayed there',
    );
    // The stream goes on after the last step it posted, without repeats or gaps.
    expect(t.steps()).toEqual(['grpo 0', 'grpo 1', 'grpo 2', 'grpo 3']);
    expect(tf.getBackend()).toBe('cpu');
  });

  it('chooses with the page’s calibrate and kept race, and after a lost device follows the ranking the choice gave', async () => {
    const asked: BackendRequest[] = [];
    const t = session({
      onSelect: (req) => asked.push(req),
      onEvent: (e) => isStep(e, 1, 'grpo', 1) && t.lose('the GPU device was lost (test)'),
    });
    const kept = { version: 1, hardware: 'h', entries: [] };
    t.init({ calibrate: 'all', race: kept });
    t.s.handle({ type: 'start', config: config({ steps: 2 }) });
    await t.until(has('done'));
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({ calibrate: 'all', cached: kept });
    expect(asked[1]).toMatchObject({ after: 'wasm', order: ['wasm', 'cpu'] });
  });

  it('ignores commands before init and a second init, with a warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const t = session();
    t.s.handle({ type: 'start', config: config() });
    t.init();
    await t.until(has('ready'));
    t.init();
    expect(t.types()).toEqual(['loading', 'loading', 'ready']);
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(/start before init was ignored/),
      expect.stringMatching(/a second init was ignored/),
    ]);
  });
});

// Each of these failed on the session of six flags this table replaced.
describe('the races of the old session', SESSION_RUNS, () => {
  it('a pause sent while a start waits does not outlive a reset: the next run is not paused', async () => {
    const t = session();
    t.init();
    t.s.handle({ type: 'start', config: config() });
    t.s.handle({ type: 'pause' });
    t.s.handle({ type: 'reset' });
    await t.until(has('reset'));
    t.s.handle({ type: 'start', config: config() });
    await t.until((ev) => has('done')(ev) || has('paused')(ev));
    expect(t.types().slice(-5)).toEqual(['started', 'step', 'step', 'step', 'done']);
  });

  it('a backend lost just after the calculator changed still starts the new run', async () => {
    const t = session({
      onEvent: (e, s) => {
        if (!isStep(e, 1, 'grpo', 1)) return;
        s.handle({ type: 'configure', config: config({ steps: 3, faulty: true }) });
        t.lose('the GPU device was lost (test)');
      },
    });
    t.init();
    t.s.handle({ type: 'start', config: config({ steps: 3 }) });
    await t.until((ev) => ev.some((e) => e.type === 'done'));
    expect(t.of('started').map((e) => e.config.faulty)).toEqual([false, true]);
    expect(t.of('done').map((e) => e.runId)).toEqual([2]);
    // The old run was not replayed for nothing, and says so.
    expect(t.of('backend-switched')[0]).toMatchObject({ runId: 1, replayed: false });
    expect(t.steps(1)).toEqual(['grpo 0', 'grpo 1']);
  });

  it('a pause during the last step ends in done, not paused', async () => {
    const t = session({ onEvent: (e, s) => isStep(e, 1, 'grpo', 2) && s.handle({ type: 'pause' }) });
    t.init();
    t.s.handle({ type: 'start', config: config() });
    await t.until((ev) => has('done')(ev) || has('paused')(ev));
    expect(t.events.at(-1)!.type).toBe('done');
  });

  it('a replay cut short by a new run does not say it replayed', async () => {
    const t = session({
      onEvent: (e) => isStep(e, 1, 'grpo', 2) && t.lose('the GPU device was lost (test)'),
      onSelect: (req, s) => req.after && s.handle({ type: 'configure', config: config({ steps: 4, seed: 2 }) }),
    });
    t.init();
    t.s.handle({ type: 'start', config: config({ steps: 4 }) });
    await t.until(has('done'));
    const switched = t.of('backend-switched')[0]!;
    expect(switched.cause).not.toMatch(/replayed/);
    expect(switched).toMatchObject({ replayed: false, step: 2 });
    expect(t.of('done').map((e) => e.runId)).toEqual([2]);
  });
});

// Each of these failed on the session before it (the figure could show a setting,
// a step or a reset that the training never had). Commands are sent from inside a step by
// wrapping the GRPO stage's own methods: "a step is in flight" is an event, not a sleep.
describe('what the session reports is what trained', SESSION_RUNS, () => {
  /** Calls `act` once a call of GrpoStage[method] has begun, while its step is in flight. */
  function during(method: 'initial' | 'next', when: (stage: GrpoStage) => boolean, act: () => void) {
    const original = GrpoStage.prototype[method];
    vi.spyOn(GrpoStage.prototype, method).mockImplementation(function (this: GrpoStage) {
      const pending = original.call(this);
      if (when(this)) act();
      return pending;
    });
  }

  /** Each GRPO step after step 0, with the configuration the session had reported for its run when it was posted. */
  function reported(events: WorkerEvent[]): { runId: number; faulty: boolean; lies: number }[] {
    const config = new Map<number, RunConfig>();
    const out: { runId: number; faulty: boolean; lies: number }[] = [];
    for (const e of events) {
      if (e.type === 'started' || e.type === 'configured') config.set(e.runId, e.config);
      if (e.type === 'step' && e.stage === 'grpo' && e.record.step > 0)
        out.push({ runId: e.runId, faulty: config.get(e.runId)!.faulty, lies: e.record.lies });
    }
    return out;
  }

  it('a setting changed while the first GRPO step computes trains the run that reports it', async () => {
    // "Fine-tune" the shipped agent, so GRPO's episodes call the calculator and its lies show.
    const t = session({ urls: { ...CHECKPOINT_URLS, pretrained: CHECKPOINT_URLS.agent } });
    let sent = false;
    during(
      'initial',
      () => !sent,
      () => {
        sent = true;
        t.s.handle({ type: 'configure', config: config({ start: 'pretrained', steps: 3, faulty: true }) });
      },
    );
    t.init();
    t.s.handle({ type: 'start', config: config({ start: 'pretrained', steps: 3 }) });
    await t.until((ev) => ev.some((e) => e.type === 'done'));
    const steps = reported(t.events);
    // A run reported as faulty met lies; one reported as reliable met none.
    for (const runId of new Set(steps.map((s) => s.runId))) {
      const mine = steps.filter((s) => s.runId === runId);
      const lies = mine.reduce((n, s) => n + s.lies, 0);
      expect({ runId, faulty: mine[0]!.faulty, lied: lies > 0 }).toEqual({
        runId,
        faulty: mine[0]!.faulty,
        lied: mine[0]!.faulty,
      });
    }
    // The run that ends carries the new setting.
    expect(t.of('done').map((e) => reported(t.events).find((s) => s.runId === e.runId)!.faulty)).toEqual([true]);
  });

  it('a device lost just as a step finishes keeps that step: posted steps have no gap, and the message names what was replayed', async () => {
    const t = session();
    vi.spyOn(GrpoStage.prototype, 'next').mockImplementation(async function (this: GrpoStage) {
      const record = await Reflect.apply(nextStep, this, []);
      if (record.step === 2 && !lost) {
        lost = true;
        t.lose('the GPU device was lost (test)');
      }
      return record;
    });
    let lost = false;
    t.init();
    t.s.handle({ type: 'start', config: config({ steps: 4 }) });
    await t.until(has('done'));
    expect(t.steps()).toEqual(['grpo 0', 'grpo 1', 'grpo 2', 'grpo 3', 'grpo 4']);
    expect(t.of('backend-switched')[0]!.cause).toMatch(/GRPO steps 1–1 were replayed there$/);
  });

  it('a command that arrived during a step that failed is acted on', async () => {
    const t = session();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(GrpoStage.prototype, 'next').mockImplementation(async function (this: GrpoStage) {
      if (this.step === 1 && !failed) {
        failed = true;
        t.s.handle({ type: 'start', config: config({ seed: 2 }) });
        throw new Error('boom');
      }
      return Reflect.apply(nextStep, this, []);
    });
    let failed = false;
    t.init();
    t.s.handle({ type: 'start', config: config() });
    await t.until(has('done'));
    expect(t.of('error')).toMatchObject([{ kind: 'internal', runId: 1, message: 'Training stopped: boom' }]);
    expect(t.of('started').map((e) => e.config.seed)).toEqual([1, 2]);
    expect(t.of('done').map((e) => e.runId)).toEqual([2]);
  });

  it('a reset followed at once by a setting change starts afresh, not from the cleared run', async () => {
    const t = session({
      onEvent: (e, s) => {
        if (!isStep(e, 1, 'grpo', 1)) return;
        s.handle({ type: 'reset' });
        s.handle({ type: 'configure', config: config({ faulty: true }) });
      },
    });
    t.init();
    t.s.handle({ type: 'start', config: config({ steps: 3 }) });
    await t.until(has('done'));
    expect(t.types().filter((x) => x === 'reset' || x === 'started' || x === 'done')).toEqual([
      'started',
      'reset',
      'started',
      'done',
    ]);
    expect(t.of('started')[1]).toMatchObject({ runId: 2, from: null, config: { faulty: true } });
  });

  it('a start that a pause travels with says it starts pausing', async () => {
    const t = session({
      onEvent: (e, s) => {
        if (!isStep(e, 1, 'grpo', 1)) return;
        s.handle({ type: 'configure', config: config({ steps: 3, faulty: true }) });
        s.handle({ type: 'pause' });
      },
    });
    t.init();
    t.s.handle({ type: 'start', config: config({ steps: 3 }) });
    await t.until(has('paused'));
    expect(t.of('started').map((e) => e.begin)).toEqual(['running', 'pausing']);
    expect(t.of('paused')).toMatchObject([{ runId: 2, stage: 'grpo', step: 0 }]);
  });
});

const nextStep = GrpoStage.prototype.next;
