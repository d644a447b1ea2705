import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MODEL } from '../../src/config';
import { demonstrationFor } from '../../src/env/episode';
import { SPLIT } from '../../src/env/sums';
import { CharModel } from '../../src/model/gpt';
import { countParams } from '../../src/model/params';
import { gelu } from '../../src/model/ops';
import {
  disposeBatch,
  lengthBuckets,
  makeTokenBatch,
  makeTokenBatches,
  supervisedLoss,
  supervisedStep,
} from '../../src/model/supervised';
import { encode } from '../../src/model/vocab';
import { TINY, useWasm } from '../tf';

beforeAll(useWasm);

describe('the character model', () => {
  it('has about 100k parameters at the plate’s size', () => {
    expect(countParams(MODEL)).toBe(104208);
  });

  it('gives the same next-character logits with the key/value cache as with a full forward', async () => {
    const model = CharModel.create(TINY, 5);
    const ids = tf.tensor2d([encode('^23+45=B23+45|68|'), encode('^10+99=B10+99|109')], undefined, 'int32');
    const full = tf.tidy(() => model.forward(ids).logits); // [2, 17, V]
    const stepped = tf.tidy(() => {
      let { logits, cache } = model.forward(ids.slice([0, 0], [2, 7]));
      const outs = [logits];
      for (let t = 7; t < 17; t++) {
        ({ logits, cache } = model.forward(ids.slice([0, t], [2, 1]), { start: t, cache }));
        outs.push(logits);
      }
      return tf.concat(outs, 1);
    });
    const diff = tf.tidy(() => tf.max(tf.abs(tf.sub(full, stepped))));
    expect((await diff.data())[0]).toBeLessThan(1e-4);
    tf.dispose([ids, full, stepped, diff]);
    model.dispose();
  });

  it('refuses positions beyond its context', () => {
    const model = CharModel.create(TINY, 5);
    const ids = tf.zeros([1, 2], 'int32') as tf.Tensor2D;
    expect(() => model.forward(ids, { start: 31 })).toThrow(/exceed the context 32/);
    ids.dispose();
    model.dispose();
  });
});

describe('fine-tuning', () => {
  const demos = SPLIT.demonstrations.slice(0, 8).map(demonstrationFor);
  const batch = () =>
    makeTokenBatch(
      demos.map((d) => d.text),
      (row, j) => (demos[row]!.authors[j + 1] === 'model' ? 1 : 0),
    );

  it('weighs only the model’s characters of a demonstration', async () => {
    const d = demonstrationFor({ a: 23, b: 45 });
    const b = makeTokenBatch([d.text], (_, j) => (d.authors[j + 1] === 'model' ? 1 : 0));
    const w = (await b.weights.array())[0]!;
    // ^23+45=B23+45|68|68|: targets 1..19; the model wrote positions 7..13 and 17..19.
    const expected = [...'pppppppmmmmmmmeeemmm'].slice(1).map((a) => (a === 'm' ? 1 : 0));
    expect(w).toEqual(expected);
    disposeBatch(b);
  });

  it('lowers the loss on a tiny model in a few steps', async () => {
    const model = CharModel.create(TINY, 2);
    const b = batch();
    const opt = tf.train.adam(1e-2);
    const first = await supervisedStep(model, opt, b, { lr: 1e-2, weightDecay: 0 });
    for (let i = 0; i < 5; i++) await supervisedStep(model, opt, b, { lr: 1e-2, weightDecay: 0 });
    const after = supervisedLoss(model, b);
    expect((await after.data())[0]).toBeLessThan(first * 0.8);
    after.dispose();
    opt.dispose();
    disposeBatch(b);
    model.dispose();
  });

  it('pads short and long rows apart only when that leaves out at least a fifth of the positions', () => {
    expect(lengthBuckets([20, 22, 20, 32, 21])).toEqual([[0, 1, 2, 4], [3]]);
    expect(lengthBuckets([30, 32, 31, 29])).toEqual([[0, 1, 2, 3]]);
    expect(lengthBuckets([22, 20, 22, 21])).toEqual([[0, 1, 2, 3]]);
  });

  it('gives the same loss over length buckets as over one padded batch', async () => {
    const model = CharModel.create(TINY, 2);
    const rows = [...demos.map((d) => d.text), '^1+2=3|4+5=9|7+7=14|0+0=0|9+9=18|'];
    const weight = (row: number, j: number) =>
      row < demos.length ? (demos[row]!.authors[j + 1] === 'model' ? 1 : 0) : 1;
    const [one, split] = [makeTokenBatch(rows, weight), makeTokenBatches(rows, weight)];
    expect(split).toHaveLength(2);
    const [a, b] = [supervisedLoss(model, one), supervisedLoss(model, split)];
    expect((await b.data())[0]).toBeCloseTo((await a.data())[0]!, 5);
    tf.dispose([a, b]);
    disposeBatch([one, ...split]);
    model.dispose();
  });

  it('keeps the tensor count flat across training steps', async () => {
    const model = CharModel.create({ ...TINY, dropout: 0.1 }, 2);
    const b = batch();
    const opt = tf.train.adam(1e-3);
    await supervisedStep(model, opt, b, { lr: 1e-3, weightDecay: 0.1, dropoutSeed: 1 }); // warm-up creates Adam's slots
    const before = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) await supervisedStep(model, opt, b, { lr: 1e-3, weightDecay: 0.1, dropoutSeed: 2 + i });
    expect(tf.memory().numTensors).toBe(before);
    opt.dispose();
    disposeBatch(b);
    model.dispose();
  });
});

describe('gelu', () => {
  it('is GPT-2’s tanh approximation', async () => {
    const xs = [-4, -1.5, -0.3, 0, 0.2, 1, 3.7];
    const ys = await gelu(tf.tensor1d(xs)).data();
    xs.forEach((x, i) => {
      const u = Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3);
      expect(ys[i]).toBeCloseTo(0.5 * x * (1 + Math.tanh(u)), 6);
    });
  });
});
