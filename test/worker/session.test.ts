import * as tf from '@tensorflow/tfjs';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GRPO, type GrpoConfig } from '../../src/config';
import type { BackendChoice, BackendRequest } from '../../src/worker/backend';
import { fetchCheckpoint } from '../../src/worker/checkpoint-fetch';
import type { BackendName, RunConfig, WorkerEvent } from '../../src/worker/protocol';
import { TrainerSession } from '../../src/worker/session';
import { useWasm } from '../tf';

beforeAll(useWasm);
afterEach(() => vi.restoreAllMocks());

const AGENT = pathToFileURL(resolve(import.meta.dirname, '../../public/checkpoints/agent/')).href + '/';
const SMALL: GrpoConfig = { ...GRPO, sumsPerStep: 2, episodesPerSum: 4 };

/** fetch over file: URLs; `edit` may change weights.bin's floats on the way. */
function fileFetch(edit?: (floats: Float32Array) => void): typeof fetch {
  return async (url) => {
    const bytes = readFileSync(new URL(String(url)));
    if (!edit || !String(url).endsWith('.bin')) return new Response(bytes);
    const floats = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    edit(floats);
    return new Response(floats.buffer);
  };
}

/** wasm first; after a loss, the next in the order (cpu). `lose` fires the current backend's loss. */
function nodeBackends() {
  const state: { lose?: (reason: string) => void } = {};
  const select = async (req: BackendRequest): Promise<BackendChoice> => {
    const backend: BackendName = req.after === 'wasm' ? 'cpu' : 'wasm';
    if (!(await tf.setBackend(backend))) throw new Error(`no ${backend}`);
    state.lose = req.onLost;
    return { backend, reason: `${backend} in Node`, skipped: [] };
  };
  return { select, lose: (reason: string) => state.lose!(reason) };
}

function session(edit?: (floats: Float32Array) => void) {
  const events: WorkerEvent[] = [];
  const backends = nodeBackends();
  const s = new TrainerSession({
    post: (e) => events.push(e),
    selectBackend: backends.select,
    fetchCheckpoint: (url) => fetchCheckpoint(url, fileFetch(edit)),
    grpo: SMALL,
  });
  const until = async (test: (events: WorkerEvent[]) => boolean, timeoutMs = 30_000) => {
    for (const t0 = Date.now(); !test(events); await new Promise((r) => setTimeout(r, 5))) {
      if (Date.now() - t0 > timeoutMs) throw new Error(`timed out; events: ${events.map((e) => e.type).join(' ')}`);
    }
  };
  const types = () => events.map((e) => e.type);
  const steps = () => events.flatMap((e) => (e.type === 'step' ? [e.record.step] : []));
  const ready = async () => {
    s.handle({ type: 'init', checkpointUrl: AGENT });
    await until((ev) => ev.some((e) => e.type === 'ready' || e.type === 'error'));
  };
  return { s, events, until, types, steps, ready, lose: backends.lose };
}

const has = (type: WorkerEvent['type'], n = 1) => (events: WorkerEvent[]) => events.filter((e) => e.type === type).length >= n;
const run = (steps: number, faulty = false, seed = 1): RunConfig => ({ faulty, seed, steps });

describe('a trainer session', () => {
  it('loads the checkpoint, then streams steps 0..N and a summary of them', async () => {
    const t = session();
    await t.ready();
    t.s.handle({ type: 'start', config: run(2) });
    await t.until(has('done'));
    expect(t.types()).toEqual(['loading', 'loading', 'ready', 'started', 'step', 'step', 'step', 'done']);
    const ready = t.events[2] as Extract<WorkerEvent, { type: 'ready' }>;
    expect(ready.backend).toBe('wasm');
    expect(ready.checkpointHeldOut).toBeGreaterThan(0);
    const done = t.events.at(-1) as Extract<WorkerEvent, { type: 'done' }>;
    const last = t.events.at(-2) as Extract<WorkerEvent, { type: 'step' }>;
    expect(done.summary.heldOutEnd).toBe(last.record.heldOut);
  });

  it('stops after the step in flight on pause, and goes on from the next step on resume', async () => {
    const t = session();
    await t.ready();
    t.s.handle({ type: 'start', config: run(4) });
    await t.until(has('step', 2));
    t.s.handle({ type: 'pause' });
    await t.until(has('paused'));
    const paused = t.events.find((e) => e.type === 'paused') as Extract<WorkerEvent, { type: 'paused' }>;
    const n = t.steps().length;
    expect(paused.step).toBe(n - 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(t.steps()).toHaveLength(n);
    t.s.handle({ type: 'resume' });
    await t.until(has('done'));
    expect(t.steps()).toEqual([0, 1, 2, 3, 4]);
    expect(t.types()).toContain('resumed');
  });

  it('pauses a run that was paused before it began right after its step 0', async () => {
    const t = session();
    await t.ready();
    t.s.handle({ type: 'start', config: run(3) });
    t.s.handle({ type: 'pause' });
    await t.until(has('paused'));
    await new Promise((r) => setTimeout(r, 300));
    expect(t.types().slice(3)).toEqual(['started', 'step', 'paused']);
    t.s.handle({ type: 'reset' });
    await t.until(has('reset'));
  });

  it('repeats a run exactly after a reset: every start begins from the checkpoint', async () => {
    const t = session();
    await t.ready();
    t.s.handle({ type: 'start', config: run(2) });
    await t.until(has('done'));
    t.s.handle({ type: 'reset' });
    await t.until(has('reset'));
    t.s.handle({ type: 'start', config: run(2) });
    await t.until(has('done', 2));
    const records = t.events.flatMap((e) => (e.type === 'step' ? [[e.runId, e.record.heldOut, e.record.meanReward]] : []));
    expect(records.filter((r) => r[0] === 2).map((r) => r.slice(1))).toEqual(records.filter((r) => r[0] === 1).map((r) => r.slice(1)));
  });

  it('restarts with the other calculator on setFaulty, keeping seed and steps', async () => {
    const t = session();
    await t.ready();
    t.s.handle({ type: 'start', config: run(30, false, 4) });
    await t.until(has('step', 2));
    t.s.handle({ type: 'setFaulty', faulty: true });
    await t.until((ev) => ev.filter((e) => e.type === 'started').length === 2);
    const started = t.events.filter((e) => e.type === 'started').at(-1) as Extract<WorkerEvent, { type: 'started' }>;
    expect(started.config).toEqual(run(30, true, 4));
    t.s.handle({ type: 'reset' });
    await t.until(has('reset'));
  });

  it('stops at the step whose loss is not finite, keeping the steps before it', async () => {
    // All weights huge: the logits overflow to ±Inf and the loss is NaN.
    const t = session((f) => f.fill(3e38));
    await t.ready();
    t.s.handle({ type: 'start', config: run(3) });
    await t.until(has('error'));
    const error = t.events.at(-1) as Extract<WorkerEvent, { type: 'error' }>;
    expect(error).toMatchObject({ kind: 'non-finite-loss', runId: 1 });
    expect(error.message).toMatch(/^The loss became NaN at step 1/);
    expect(t.steps()).toEqual([0]);
  });

  it('moves a run to the next backend when the device is lost, from its last completed step', async () => {
    const t = session();
    await t.ready();
    t.s.handle({ type: 'start', config: run(3) });
    await t.until(has('step', 2));
    t.lose('the GPU device was lost (test)');
    await t.until(has('done'), 60_000);
    const switched = t.events.find((e) => e.type === 'backend-switched') as Extract<WorkerEvent, { type: 'backend-switched' }>;
    expect(switched).toMatchObject({ from: 'wasm', to: 'cpu', runId: 1 });
    expect(switched.reason).toMatch(/device was lost \(test\); continuing on cpu/);
    // The stream goes on after the last step it posted, without repeats or gaps.
    expect(t.steps()).toEqual([0, 1, 2, 3]);
    const postedBefore = t.events.slice(0, t.events.indexOf(switched)).filter((e) => e.type === 'step').length;
    expect(switched.step).toBe(postedBefore - 1);
    expect(tf.getBackend()).toBe('cpu');
    await tf.setBackend('wasm');
  });

  it('ignores commands before init and a second init, with a warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const t = session();
    t.s.handle({ type: 'start', config: run(1) });
    await t.ready();
    t.s.handle({ type: 'init', checkpointUrl: AGENT });
    t.s.handle({ type: 'setFaulty', faulty: true });
    await new Promise((r) => setTimeout(r, 50));
    expect(t.types()).toEqual(['loading', 'loading', 'ready']);
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(/start before init was ignored/),
      expect.stringMatching(/a second init was ignored/),
      expect.stringMatching(/setFaulty before any start was ignored/),
    ]);
  });
});
