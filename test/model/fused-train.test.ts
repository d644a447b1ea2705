import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MODEL } from '../../src/config';
import { demonstrationFor } from '../../src/env/episode';
import { SPLIT } from '../../src/env/sums';
import { TRAIN_BACKWARD_KERNEL, TRAIN_FORWARD_KERNEL } from '../../src/model/fused/train';
import { setFused } from '../../src/model/fused/module';
import { CharModel } from '../../src/model/gpt';
import { variableGrads } from '../../src/model/gradients';
import { disposeBatch, makeTokenBatch, makeTokenBatches, supervisedLoss } from '../../src/model/supervised';
import { shiftTokens } from '../../src/model/logprobs';
import { clippedLoss } from '../../src/rl/loss';
import { loadCheckpoint, SHIPPED } from '../../src/node/checkpoint-fs';
import { TINY, useWasm } from '../tf';

beforeAll(useWasm);
afterEach(() => setFused(true));

function bitsDiffering(a: tf.TypedArray, b: tf.TypedArray): number {
  const [x, y] = [new Uint32Array(a.buffer, a.byteOffset, a.length), new Uint32Array(b.buffer, b.byteOffset, b.length)];
  let n = x.length === y.length ? 0 : Infinity;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) n++;
  return n;
}

/** Fine-tuning's loss and every gradient, on the fused or the unfused path: demonstrations beside worksheet lines, two length buckets. */
function supervised(model: CharModel, fused: boolean, dropoutSeed?: number): Record<string, Float32Array> {
  setFused(fused);
  const demos = SPLIT.demonstrations.slice(0, 6).map(demonstrationFor);
  const rows = [...demos.map((d) => d.text), '^3+4=7|', '^9+9=18|', '^2+5=7|.'];
  const batch = makeTokenBatches(rows, (r, j) => (r >= demos.length || demos[r]!.authors[j + 1] === 'model' ? 1 : 0));
  const { value, grads } = variableGrads(() => supervisedLoss(model, batch, dropoutSeed), model.trainable);
  const out: Record<string, Float32Array> = { loss: value.dataSync() as Float32Array };
  Object.entries(model.params).forEach(([name, v]) => (out[name] = grads[v.name]!.dataSync() as Float32Array));
  tf.dispose([value, ...Object.values(grads)]);
  disposeBatch(batch);
  return out;
}

function expectSameBits(a: Record<string, Float32Array>, b: Record<string, Float32Array>): void {
  const differing = Object.keys(b).filter((k) => bitsDiffering(a[k]!, b[k]!) > 0);
  expect(differing).toEqual([]);
}

describe('training logits with the fused kernels', () => {
  it('give the unfused loss and gradients bit for bit (the shipped agent, two length buckets)', () => {
    const { model } = loadCheckpoint(SHIPPED.agent);
    expectSameBits(supervised(model, true), supervised(model, false));
    model.dispose();
  });

  it('give the unfused loss and gradients bit for bit with dropout, and for models of other sizes', () => {
    for (const config of [MODEL, TINY, { ...MODEL, layers: 1, heads: 2, dropout: 0.2 }]) {
      const model = CharModel.create(config, 4);
      expectSameBits(supervised(model, true, 11), supervised(model, false, 11));
      model.dispose();
    }
  });

  it('give the unfused logits bit for bit outside a gradient tape, and match the decoder', () => {
    const model = CharModel.create(MODEL, 2);
    const ids = tf.tensor2d(
      [
        [1, 4, 5, 12, 6, 7, 13],
        [1, 2, 3, 12, 8, 9, 13],
      ],
      undefined,
      'int32',
    );
    const run = (fused: boolean) => (setFused(fused), tf.tidy(() => model.logits(ids).dataSync() as Float32Array));
    const decoded = tf.tidy(() => model.forward(ids).logits.dataSync() as Float32Array);
    expect(bitsDiffering(run(true), run(false))).toBe(0);
    expect(bitsDiffering(run(true), decoded)).toBe(0);
    tf.dispose(ids);
    model.dispose();
  });

  it('run a forward kernel and a backward kernel per length bucket, and leave no tensors behind', async () => {
    const model = CharModel.create(MODEL, 3);
    supervised(model, true, 5);
    const before = tf.memory().numTensors;
    const info = await tf.profile(() => void supervised(model, true, 5));
    expect(tf.memory().numTensors).toBe(before);
    const names = info.kernels.map((k) => k.name);
    expect(names.filter((n) => n === TRAIN_FORWARD_KERNEL)).toHaveLength(2);
    expect(names.filter((n) => n === TRAIN_BACKWARD_KERNEL)).toHaveLength(2);
    model.dispose();
  });

  it('free their tape when the loss throws after the forward, and when the loss does not use the logits', () => {
    const model = CharModel.create(MODEL, 3);
    const ids = tf.tensor2d([[1, 4, 5, 12, 6, 7, 13]], undefined, 'int32');
    const before = tf.memory().numTensors;
    expect(() =>
      variableGrads(() => {
        model.logits(ids);
        throw new Error('a broken loss');
      }, model.trainable),
    ).toThrow('a broken loss');
    expect(tf.memory().numTensors).toBe(before);
    const { value, grads } = variableGrads(() => {
      model.logits(ids);
      return tf.sum(model.params['lnf.b']!) as tf.Scalar;
    }, model.trainable);
    tf.dispose([value, ...Object.values(grads)]);
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose(ids);
    model.dispose();
  });

  it('give the unfused policy loss and gradients bit for bit at temperatures other than 1', () => {
    const { model } = loadCheckpoint(SHIPPED.agent);
    const texts = ['^23+45=B23+45|68|68|', '^10+99=B10+99|109|10', '^1+2=B1+2|3|3|'];
    const run = (fused: boolean, temperature: number) => {
      setFused(fused);
      const batch = makeTokenBatch(texts, (r, j) => (j > 5 && (r + j) % 3 !== 0 ? 1 : 0));
      const { inputs, targets } = shiftTokens(batch.tokens);
      const advantages = tf.tensor1d([1.2, -0.4, -0.8]);
      const { value, grads } = variableGrads(
        () => clippedLoss(model.logits(inputs), { targets, weights: batch.weights, advantages }, 0.2, temperature).loss,
        model.trainable,
      );
      const out: Record<string, Float32Array> = { loss: value.dataSync() as Float32Array };
      Object.entries(model.params).forEach(([name, v]) => (out[name] = grads[v.name]!.dataSync() as Float32Array));
      tf.dispose([value, inputs, targets, advantages, ...Object.values(grads)]);
      disposeBatch(batch);
      return out;
    };
    for (const t of [0.5, 1.5]) expectSameBits(run(true, t), run(false, t));
    model.dispose();
  });
});
