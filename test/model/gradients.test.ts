import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CharModel } from '../../src/model/gpt';
import { gelu, layerNorm, linear, mlp } from '../../src/model/ops';
import { encode } from '../../src/model/vocab';
import { TINY, useWasm } from '../tf';

beforeAll(useWasm);

/** Over pairs of tensors, the largest |a − b| relative to the largest |b| of the same pair. */
async function relativeGap(a: tf.Tensor[], b: tf.Tensor[]): Promise<number> {
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [await a[i]!.data(), await b[i]!.data()];
    let gap = 0;
    let scale = 0;
    for (let j = 0; j < x.length; j++) {
      gap = Math.max(gap, Math.abs(x[j]! - y[j]!));
      scale = Math.max(scale, Math.abs(y[j]!));
    }
    worst = Math.max(worst, gap / scale);
  }
  return worst;
}

/** Gradients of Σ w·f(inputs) (a random weighting) with respect to every input. */
function gradsOf(f: (...xs: tf.Tensor[]) => tf.Tensor, inputs: tf.Tensor[], seed: number): tf.Tensor[] {
  return tf.tidy(() => {
    const w = tf.randomNormal(f(...inputs).shape, 0, 1, 'float32', seed);
    return tf.grads((...xs: tf.Tensor[]) => tf.sum(tf.mul(f(...xs), w)))(inputs);
  });
}

const plainLayerNorm = (x: tf.Tensor, g: tf.Tensor, b: tf.Tensor) => {
  const { mean, variance } = tf.moments(x, -1, true);
  return tf.add(tf.mul(tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, 1e-5))), g), b);
};
const plainLinear = (x: tf.Tensor, w: tf.Tensor, b: tf.Tensor) =>
  tf.add(tf.matMul(x as tf.Tensor2D, w as tf.Tensor2D), b);

/** The model written the plain way, every gradient left to tfjs: the reference the hand-written ones must match. */
function referenceLogits(model: CharModel, tokens: tf.Tensor2D): tf.Tensor {
  const p = (name: string) => model.params[name]!;
  const { heads: H, dModel: D, vocabSize: V } = model.config;
  const [B, T] = tokens.shape;
  const hd = D / H;
  const split = (t: tf.Tensor) => t.reshape([B, T, H, hd]).transpose([0, 2, 1, 3]); // [B, H, T, hd]
  const tok = tf.matMul(tf.oneHot(tokens.reshape([-1]), V).toFloat(), p('wte')).reshape([B, T, D]);
  let x = tf.add(tok, tf.slice(p('wpe'), [0, 0], [T, D])); // [B, T, D]
  const mask = tf.mul(tf.sub(1, tf.linalg.bandPart(tf.ones([T, T]), -1, 0)), -1e9);
  for (let l = 0; l < model.config.layers; l++) {
    const [q, k, v] = tf
      .split(
        plainLinear(
          plainLayerNorm(x, p(`h${l}.ln1.g`), p(`h${l}.ln1.b`)).reshape([B * T, D]),
          p(`h${l}.attn.qkv.w`),
          p(`h${l}.attn.qkv.b`),
        ),
        3,
        -1,
      )
      .map(split);
    const att = tf.softmax(tf.add(tf.div(tf.matMul(q!, tf.transpose(k!, [0, 1, 3, 2])), Math.sqrt(hd)), mask));
    const y = tf
      .matMul(att, v!)
      .transpose([0, 2, 1, 3])
      .reshape([B * T, D]);
    x = tf.add(x, plainLinear(y, p(`h${l}.attn.proj.w`), p(`h${l}.attn.proj.b`)).reshape([B, T, D]));
    const n = plainLayerNorm(x, p(`h${l}.ln2.g`), p(`h${l}.ln2.b`)).reshape([B * T, D]);
    x = tf.add(
      x,
      plainLinear(
        gelu(plainLinear(n, p(`h${l}.mlp.fc.w`), p(`h${l}.mlp.fc.b`))),
        p(`h${l}.mlp.proj.w`),
        p(`h${l}.mlp.proj.b`),
      ).reshape([B, T, D]),
    );
  }
  return plainLinear(plainLayerNorm(x, p('lnf.g'), p('lnf.b')).reshape([B * T, D]), p('head.w'), p('head.b')).reshape([
    B,
    T,
    V,
  ]);
}

describe('hand-written gradients', () => {
  const input = () => tf.randomNormal([12, 8], 0, 2, 'float32', 1);

  it('of layer norm match automatic differentiation of its formula', async () => {
    const inputs = [input(), tf.randomNormal([8], 1, 0.5, 'float32', 2), tf.randomNormal([8], 0, 0.5, 'float32', 3)];
    expect(await relativeGap(gradsOf(layerNorm, inputs, 4), gradsOf(plainLayerNorm, inputs, 4))).toBeLessThan(1e-5);
  });

  it('of a linear layer match automatic differentiation of its formula', async () => {
    const inputs = [input(), tf.randomNormal([8, 5], 0, 1, 'float32', 5), tf.randomNormal([5], 0, 1, 'float32', 6)];
    expect(await relativeGap(gradsOf(linear, inputs, 7), gradsOf(plainLinear, inputs, 7))).toBeLessThan(1e-5);
  });

  it('of the MLP (linear, GELU, linear) match automatic differentiation of its formula', async () => {
    const inputs = [
      input(),
      tf.randomNormal([8, 32], 0, 0.5, 'float32', 8),
      tf.randomNormal([32], 0, 0.5, 'float32', 9),
      tf.randomNormal([32, 8], 0, 0.5, 'float32', 10),
      tf.randomNormal([8], 0, 0.5, 'float32', 11),
    ];
    const plain = (x: tf.Tensor, w1: tf.Tensor, b1: tf.Tensor, w2: tf.Tensor, b2: tf.Tensor) =>
      plainLinear(gelu(plainLinear(x, w1, b1)), w2, b2);
    expect(await relativeGap(gradsOf(mlp, inputs, 12), gradsOf(plain, inputs, 12))).toBeLessThan(1e-5);
  });
});

describe('the training forward', () => {
  const texts = ['^23+45=B23+45|68|68|', '^10+99=B10+99|109|10', '^55+55=B55+55|110|11'];
  const ids = () => tf.tensor2d(texts.map(encode), undefined, 'int32');

  it('gives the decoding forward’s logits bit for bit', async () => {
    const model = CharModel.create({ ...TINY, layers: 2 }, 3);
    const tokens = ids();
    const [a, b] = tf.tidy(() => [model.logits(tokens), model.forward(tokens).logits]);
    expect(await a!.data()).toEqual(await b!.data());
    tf.dispose([a!, b!, tokens]);
    model.dispose();
  });

  it('gives every parameter the gradient that automatic differentiation of the plain formulas gives', async () => {
    const model = CharModel.create({ ...TINY, layers: 2 }, 3);
    for (const v of model.trainable)
      v.assign(tf.tidy(() => tf.add(v, tf.randomNormal(v.shape, 0, 0.3, 'float32', v.size)))); // away from the init's symmetries
    const tokens = ids();
    const weights = tf.randomNormal([3, 20, TINY.vocabSize], 0, 1, 'float32', 5);
    const lossOf = (logits: tf.Tensor) => tf.sum(tf.mul(tf.logSoftmax(logits), weights)) as tf.Scalar;
    const ours = tf.variableGrads(() => lossOf(model.logits(tokens)), model.trainable);
    const plain = tf.variableGrads(() => lossOf(referenceLogits(model, tokens)), model.trainable);
    const names = Object.keys(plain.grads);
    expect(
      await relativeGap(
        names.map((n) => ours.grads[n]!),
        names.map((n) => plain.grads[n]!),
      ),
    ).toBeLessThan(1e-5);
    tf.dispose([tokens, weights, ours.value, plain.value, ...Object.values(ours.grads), ...Object.values(plain.grads)]);
    model.dispose();
  });
});
