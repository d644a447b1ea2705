// The backend race's yardstick: a GRPO step in miniature, real code on the active backend.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { calibrate } from '../../src/rl/calibrate';
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
    const cut = await calibrate({ bound: 0 });
    expect(cut.cut).toBe(true);
    // Cut after the first sampled position: well short of the positions and the update.
    expect(cut.ms).toBeLessThan(full.ms);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('gives up after a warm-up slower than its bound', async () => {
    const c = await calibrate({ warmUpBound: 0 });
    expect(c).toMatchObject({ cut: true, ms: c.warmUpMs });
  });
});
