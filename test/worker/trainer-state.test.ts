import { describe, expect, it } from 'vitest';
import type { StepRecord } from '../../src/rl/trainer';
import type { WorkerEvent } from '../../src/worker/protocol';
import { INITIAL_STATE, MAX_PREVIOUS, reduceEvents, workerDied, type TrainerState } from '../../src/worker/trainer-state';

const record = (step: number, totalMs = 500): StepRecord => ({
  step, heldOut: 0.5, heldOutCorrect: 15, heldOutN: 30, meanReward: step === 0 ? null : 0.5, rewardStd: null,
  zeroSpreadGroups: null, clipFraction: null, loss: null, modelChars: 0, envChars: 0, lies: 0, calls: 0,
  timings: { sample: 0, logprobs: 0, gradient: 0, evaluate: 0, total: totalMs }, episodes: [],
});
const memory = { numTensors: 92, numBytes: 1 };
const config = { faulty: false, seed: 1, steps: 3 };
const ready: WorkerEvent = { type: 'ready', backend: 'wasm', reason: 'r', skipped: [], loadMs: 10, checkpointHeldOut: 0.8 };
const started = (runId: number, faulty = false): WorkerEvent => ({ type: 'started', runId, config: { ...config, faulty } });
const step = (runId: number, n: number, ms?: number): WorkerEvent => ({ type: 'step', runId, record: record(n, ms), memory });
const fold = (...events: WorkerEvent[]): TrainerState => reduceEvents(INITIAL_STATE, events);

describe('the trainer state', () => {
  it('appends the steps of the live run in order, a batch at a time', () => {
    const s1 = fold(ready, started(1), step(1, 0), step(1, 1));
    const s2 = reduceEvents(s1, [step(1, 2), step(1, 3)]);
    expect(s2.status).toBe('running');
    expect(s2.run!.steps.map((r) => r.step)).toEqual([0, 1, 2, 3]);
    expect(s1.run!.steps).toHaveLength(2); // the earlier state is not mutated
    expect(s2.memory).toEqual(memory);
  });

  it('measures steps per second from the last steps, ignoring the evaluation-only step 0', () => {
    const s = fold(ready, started(1), step(1, 0, 9000), step(1, 1, 250), step(1, 2, 250));
    expect(s.stepsPerSecond).toBe(4);
  });

  it('drops steps of a run that was replaced', () => {
    const s = fold(ready, started(1), step(1, 0), started(2), step(1, 1), step(2, 0));
    expect(s.run!.runId).toBe(2);
    expect(s.run!.steps).toHaveLength(1);
  });

  it('keeps a finished run as a previous one when the next starts, so it can be drawn dimmed', () => {
    const done: WorkerEvent = { type: 'done', runId: 1, summary: { heldOutStart: 0.5, heldOutEnd: 0.5, rewardFirst5: 0.5, rewardLast5: 0.5, seconds: 1 } };
    const s = fold(ready, started(1), step(1, 0), step(1, 1), done, started(2, true));
    expect(s.previous).toHaveLength(1);
    expect(s.previous[0]).toMatchObject({ runId: 1, end: 'done', config: { faulty: false } });
    expect(s.run).toMatchObject({ runId: 2, steps: [], config: { faulty: true } });
  });

  it('marks a reset run as stopped and returns to ready; a run without steps leaves nothing behind', () => {
    const s = fold(ready, started(1), step(1, 0), { type: 'reset' }, started(2), { type: 'reset' });
    expect(s.status).toBe('ready');
    expect(s.run).toBeNull();
    expect(s.previous.map((r) => [r.runId, r.end])).toEqual([[1, 'stopped']]);
  });

  it(`keeps at most ${MAX_PREVIOUS} previous runs, the latest ones`, () => {
    const events = Array.from({ length: 10 }, (_, i) => [started(i + 1), step(i + 1, 0)]).flat();
    const s = fold(ready, ...events, { type: 'reset' });
    expect(s.previous.map((r) => r.runId)).toEqual([5, 6, 7, 8, 9, 10]);
  });

  it('keeps the steps so far when a run stops on an error', () => {
    const s = fold(ready, started(1), step(1, 0), { type: 'error', kind: 'non-finite-loss', message: 'The loss became NaN at step 1', runId: 1 });
    expect(s.status).toBe('error');
    expect(s.error).toEqual({ kind: 'non-finite-loss', message: 'The loss became NaN at step 1' });
    expect(s.run).toMatchObject({ end: 'error' });
    expect(s.run!.steps).toHaveLength(1);
  });

  it('follows pause, resume and a backend switch', () => {
    const s1 = fold(ready, started(1), step(1, 0), { type: 'paused', runId: 1, step: 0 });
    expect(s1.status).toBe('paused');
    const s2 = reduceEvents(s1, [{ type: 'resumed', runId: 1, step: 0 }, { type: 'backend-switched', runId: 1, from: 'wasm', to: 'cpu', reason: 'lost', step: 0 }]);
    expect(s2.status).toBe('running');
    expect(s2.ready!.backend).toBe('cpu');
    expect(s2.lastSwitch).toEqual({ from: 'wasm', to: 'cpu', reason: 'lost', step: 0 });
  });

  it('says so when the worker dies, keeping what was streamed', () => {
    const s = workerDied(fold(ready, started(1), step(1, 0)), 'The training worker stopped: boom.');
    expect(s.status).toBe('dead');
    expect(s.error!.kind).toBe('worker');
    expect(s.run!.steps).toHaveLength(1);
  });
});
