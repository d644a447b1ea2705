// The idle warm-up: the calibration's work in slices, with nothing left behind.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { PASSES } from '../../src/worker/calibrate';
import { IdleWarmUp } from '../../src/worker/warm-up';
import { TINY, useWasm } from '../tf';

beforeAll(useWasm);

describe('the idle warm-up', () => {
  it('runs every kernel once, the forward and the update apart, then calibration passes until one stops paying, and leaves no tensors once disposed', async () => {
    const before = tf.memory().numTensors;
    const w = new IdleWarmUp(TINY);
    let slices = 0;
    while (await w.slice()) slices++;
    const { slices: ms, ms: total } = w.summary();
    expect(ms).toHaveLength(slices + 1);
    // The forward and the update once each, then at least two passes (one to compare with) and at most PASSES.
    expect(ms.length).toBeGreaterThanOrEqual(4);
    expect(ms.length).toBeLessThanOrEqual(PASSES + 2);
    expect(total).toBeCloseTo(ms.reduce((a, b) => a + b, 0));
    expect(w.finished).toBe(true);
    expect(await w.slice()).toBe(false);
    w.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('can be stopped after any slice, leaving no tensors', async () => {
    const before = tf.memory().numTensors;
    const w = new IdleWarmUp(TINY);
    expect(await w.slice()).toBe(true);
    w.dispose();
    expect(w.finished).toBe(true);
    expect(await w.slice()).toBe(false);
    expect(tf.memory().numTensors).toBe(before);
  });
});
