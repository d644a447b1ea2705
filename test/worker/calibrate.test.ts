// The backend race's yardstick: a GRPO step in miniature, real code on the active backend.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { calibrate } from '../../src/worker/calibrate';
import { useWasm } from '../tf';

beforeAll(useWasm);

describe('calibrate', () => {
  it('times the sampled positions and the update after a warm-up, and leaves no tensors behind', async () => {
    const before = tf.memory().numTensors;
    const c = await calibrate();
    expect(c.cut).toBe(false);
    expect(c.ms).toBeGreaterThan(0);
    expect(c.warmUpMs).toBeGreaterThan(0);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('stops a candidate as soon as it is past the bound, and leaves no tensors behind', async () => {
    const full = await calibrate();
    const before = tf.memory().numTensors;
    const cut = await calibrate({ bound: 0, floor: false });
    expect(cut.cut).toBe('pass');
    expect(cut.passes).toEqual([]);
    // The warm-up's two readbacks, then the pass's first: it stopped there, not at the pass's end.
    expect(cut.readbacks).toBe(3);
    expect(full.readbacks).toBe(2 + 5 * full.passes.length);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('gives up before its warm-up when one readback’s round trip already puts a step past the bound', async () => {
    const c = await calibrate({ bound: 1e-6, warmUpBound: 1e9 });
    expect(c.cut).toBe('round-trip');
    expect(c.passes).toEqual([]);
  });

  it('gives up after a warm-up slower than its bound', async () => {
    const c = await calibrate({ warmUpBound: 0 });
    expect(c).toMatchObject({ cut: 'warm-up', ms: c.warmUpMs });
  });
});
