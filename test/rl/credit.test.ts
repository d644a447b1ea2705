// Credit assignment through the one module that decides it (rl/credit.ts): which characters the
// loss covers, what the advantage is — and what each choice does to the gradient.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { GRPO } from '../../src/config';
import type { Author } from '../../src/env/episode';
import { CharModel } from '../../src/model/gpt';
import { shiftTokens } from '../../src/model/logprobs';
import { makeTokenBatch } from '../../src/model/supervised';
import { episodeAdvantages, trainedCount, trainedOn } from '../../src/rl/credit';
import type { LossMask } from '../../src/config';
import { clippedLoss } from '../../src/rl/loss';
import { TINY, useWasm } from '../tf';

beforeAll(useWasm);

// One group of four episodes for the same sum: two right, two wrong.
const TEXTS = ['^23+45=B23+45|68|68|', '^23+45=B23+45|68|61|', '^23+45=B23+45|68|68|', '^23+45=B23+45|67|67|'];
const WHO = 'pppppppmmmmmmmeeemmm';
const AUTHORS: Author[] = [...WHO].map((c) => (c === 'p' ? 'prompt' : c === 'm' ? 'model' : 'env'));
const REWARDS = [1, 0, 1, 0];
const credit = { ...GRPO, episodesPerSum: 4 };

/**
 * Gradients of the clipped loss with respect to the logits [N, L-1, V] and to the weights.
 * modelChars: the mean's denominator, when two masks are to be compared term by term.
 */
function gradients(model: CharModel, mask: LossMask, advantages: number[], modelChars?: number) {
  const b = makeTokenBatch(TEXTS, (_, j) => (trainedOn(AUTHORS[j + 1], mask) ? 1 : 0));
  const { inputs, targets } = shiftTokens(b.tokens);
  const policy = { targets, weights: b.weights, advantages: tf.tensor1d(advantages), trainedChars: modelChars };
  const logits = tf.tidy(() => model.logits(inputs));
  const dLogits = tf.grad((x: tf.Tensor) => clippedLoss(x as tf.Tensor3D, policy, 0.2, 1).loss)(logits);
  const { grads } = tf.variableGrads(() => clippedLoss(model.logits(inputs), policy, 0.2, 1).loss, model.trainable);
  tf.dispose([b.tokens, b.weights, inputs, targets, policy.advantages, logits]);
  return { dLogits, grads };
}

/** |gradient| summed per target position of the first episode: [L-1]. */
const perPosition = (dLogits: tf.Tensor) =>
  tf.tidy(() => tf.sum(tf.abs(dLogits), -1).slice([0, 0], [1, -1]).reshape([-1])).dataSync();

describe('which characters the loss covers', () => {
  it('is the model’s only with masking on; the calculator’s too with it off; the prompt only when asked', () => {
    expect((['prompt', 'model', 'env', 'pad'] as const).map((a) => trainedOn(a, 'model'))).toEqual([
      false,
      true,
      false,
      false,
    ]);
    expect((['prompt', 'model', 'env', 'pad'] as const).map((a) => trainedOn(a, 'model+env'))).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect((['prompt', 'model', 'env', 'pad'] as const).map((a) => trainedOn(a, 'all'))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(trainedCount(AUTHORS, 'model')).toBe(10); // B23+45| and 68|
    expect(trainedCount(AUTHORS, 'model+env')).toBe(13);
    expect(GRPO.lossMask).toBe('model'); // the plate's
  });

  it('with masking on, gives exactly zero gradient at the prompt’s and the calculator’s logits', () => {
    const model = CharModel.create(TINY, 5);
    const { dLogits, grads } = gradients(model, 'model', episodeAdvantages(REWARDS, credit));
    perPosition(dLogits).forEach((g, j) =>
      AUTHORS[j + 1] === 'model' ? expect(g).toBeGreaterThan(0) : expect(g).toBe(0),
    );
    tf.dispose([dLogits, ...Object.values(grads)]);
    model.dispose();
  });

  it('with masking off, gives a non-zero gradient at the calculator’s result logits', () => {
    const model = CharModel.create(TINY, 5);
    const { dLogits, grads } = gradients(model, 'model+env', episodeAdvantages(REWARDS, credit));
    perPosition(dLogits).forEach((g, j) =>
      AUTHORS[j + 1] === 'prompt' ? expect(g).toBe(0) : expect(g).toBeGreaterThan(0),
    );
    tf.dispose([dLogits, ...Object.values(grads)]);
    model.dispose();
  });

  it('gains nothing from the prompt under group-relative advantages: its gradient cancels within the group, but not with the raw reward', async () => {
    // Every episode of a group shares the prompt, so the prompt's log-probabilities are the same in
    // each; weighted by advantages that sum to zero, their gradients cancel. Raw rewards do not sum to zero.
    const model = CharModel.create(TINY, 6);
    const largestDifference = async (advantages: number[]) => {
      const count = 4 * trainedCount(AUTHORS, 'model+env'); // one denominator: compare the sums term by term
      const a = gradients(model, 'model+env', advantages, count);
      const b = gradients(model, 'all', advantages, count);
      const diffs = await Promise.all(
        model.trainable.map((v) => tf.tidy(() => tf.max(tf.abs(tf.sub(a.grads[v.name]!, b.grads[v.name]!)))).data()),
      );
      const scale = await Promise.all(
        model.trainable.map((v) => tf.tidy(() => tf.max(tf.abs(a.grads[v.name]!))).data()),
      );
      tf.dispose([a.dLogits, b.dLogits, ...Object.values(a.grads), ...Object.values(b.grads)]);
      return Math.max(...diffs.map((d) => d[0]!)) / Math.max(...scale.map((s) => s[0]!));
    };
    expect(await largestDifference(episodeAdvantages(REWARDS, credit))).toBeLessThan(1e-5);
    expect(await largestDifference(episodeAdvantages(REWARDS, { ...credit, advantage: 'raw' }))).toBeGreaterThan(1e-2);
    model.dispose();
  });
});

describe('what the advantage is', () => {
  it('is the reward relative to the group by default, and the reward itself when raw', () => {
    const group = episodeAdvantages(REWARDS, credit);
    expect(group.reduce((s, a) => s + a, 0)).toBeCloseTo(0, 10);
    expect(group[0]).toBeGreaterThan(0);
    expect(group[1]).toBeLessThan(0);
    expect(episodeAdvantages(REWARDS, { ...credit, advantage: 'raw' })).toEqual(REWARDS);
    expect(GRPO.advantage).toBe('group'); // the plate's
  });
});
