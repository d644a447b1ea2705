// The worker session's idle warm-up, in Node with the real model: driven by the session's own
// events and the next macrotask, never by sleeps.
import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { IdleWarmUp } from '../../src/worker/warm-up';
import type { WorkerEvent } from '../../src/protocol/messages';
import { useWasm } from '../tf';
import { config, has, session } from './session-harness';

beforeAll(useWasm);
afterEach(() => vi.restoreAllMocks());

/** What a run's records say, number for number, less the clock's readings (timings, time split). */
const readouts = (events: WorkerEvent[]) =>
  events.flatMap((e) =>
    e.type === 'step'
      ? [JSON.stringify(e.record, (k, v) => (k === 'timings' || k === 'timeSplit' ? undefined : v))]
      : [],
  );

describe('a trainer session that warms up while idle', () => {
  it('warms up after Ready, says what it did, and leaves no tensors behind', async () => {
    const before = tf.memory().numTensors;
    const t = session({ warmUp: true });
    t.init();
    await t.until(has('warmed'));
    const warmed = t.of('warmed')[0]!;
    expect(warmed.complete).toBe(true);
    expect(warmed.slices.length).toBeGreaterThanOrEqual(4);
    expect(warmed.ms).toBeCloseTo(warmed.slices.reduce((a, b) => a + b, 0));
    // Ready holds the checkpoint's bytes, not tensors: the warm-up's model and Adam slots are gone.
    expect(tf.memory().numTensors).toBe(before);
  });

  it('lets a Run that arrives during the warm-up in after one slice, and trains exactly as without it', async () => {
    const coldBefore = tf.memory().numTensors;
    const cold = session();
    cold.init();
    cold.s.handle({ type: 'start', config: config({ steps: 2 }) });
    await cold.until(has('done'));

    const before = tf.memory().numTensors;
    const t = session({
      warmUp: true,
      onEvent: (e, s) =>
        e.type === 'ready' && setTimeout(() => s.handle({ type: 'start', config: config({ steps: 2 }) }), 0),
    });
    t.init();
    await t.until(has('done'));
    expect(t.types()).toEqual(['loading', 'loading', 'ready', 'warmed', 'started', 'step', 'step', 'step', 'done']);
    expect(t.of('warmed')[0]).toMatchObject({ complete: false, slices: [expect.any(Number)] });
    expect(readouts(t.events)).toEqual(readouts(cold.events));
    // The run's records count the run's tensors only: the warm-up's are gone before its first step.
    expect(t.of('step').map((e) => e.memory.numTensors - before)).toEqual(
      cold.of('step').map((e) => e.memory.numTensors - coldBefore),
    );
  });

  it('does not warm up when the first Run is already waiting at Ready', async () => {
    const t = session({
      warmUp: true,
      onEvent: (e, s) => e.type === 'ready' && s.handle({ type: 'start', config: config({ steps: 1 }) }),
    });
    t.init();
    await t.until(has('done'));
    expect(t.types()).not.toContain('warmed');
  });

  it('ends quietly when the warm-up fails: nothing said to the page, no tensors left, and the Run trains', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const slice = vi.spyOn(IdleWarmUp.prototype, 'slice').mockRejectedValueOnce(new Error('boom'));
    const before = tf.memory().numTensors;
    const t = session({
      warmUp: true,
      onEvent: (e, s) =>
        e.type === 'ready' && setTimeout(() => s.handle({ type: 'start', config: config({ steps: 1 }) }), 0),
    });
    t.init();
    await t.until(has('started'));
    expect(slice).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('the idle warm-up stopped (boom)'));
    expect(tf.memory().numTensors).toBe(before);
    await t.until(has('done'));
    expect(t.types()).not.toContain('warmed');
    expect(t.types()).not.toContain('error');
  });
});
