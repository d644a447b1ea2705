import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { GRPO, type GrpoConfig } from '../../src/config';
import type { Author } from '../../src/env/episode';
import { adam } from '../../src/model/adam';
import { CharModel } from '../../src/model/gpt';
import { shiftTokens, targetLogProbs } from '../../src/model/logprobs';
import { disposeBatch, makeTokenBatch } from '../../src/model/supervised';
import { clippedLoss } from '../../src/rl/loss';
import { NonFiniteLossError } from '../../src/model/non-finite';
import { policyUpdate } from '../../src/rl/update';
import { TINY, useWasm } from '../tf';

beforeAll(useWasm);

const authorsOf = (codes: string): Author[] =>
  [...codes].map((c) => ({ p: 'prompt', m: 'model', e: 'env' })[c] as Author);
const WHO = 'pppppppmmmmmmmeeemmm';
/** A right and a wrong answer to the same sum; the first earns advantage +1, the second −1. */
const EPISODES = [
  { text: '^23+45=B23+45|68|68|', authors: authorsOf(WHO) },
  { text: '^23+45=B23+45|68|61|', authors: authorsOf(WHO) },
];
const CONFIG: GrpoConfig = { ...GRPO, lr: 1e-2 };

/** Per episode: the model's characters' log-probabilities under the model, and which positions those are. */
async function modelLogProbs(model: CharModel): Promise<{ perEpisode: number[]; logp: number[][] }> {
  const batch = makeTokenBatch(
    EPISODES.map((e) => e.text),
    (_, j) => (WHO[j + 1] === 'm' ? 1 : 0),
  );
  const { inputs, targets } = shiftTokens(batch.tokens);
  const lp = tf.tidy(() => targetLogProbs(model.logits(inputs), targets));
  const logp = (await lp.array()) as number[][];
  const weights = (await batch.weights.array()) as number[][];
  tf.dispose([lp, inputs, targets]);
  disposeBatch(batch);
  return { perEpisode: logp.map((row, i) => row.reduce((s, x, j) => s + x * weights[i]![j]!, 0)), logp };
}

describe('a policy update', () => {
  it('raises the log-probability of the model’s characters in a positive-advantage episode and lowers it in a negative one', async () => {
    const model = CharModel.create(TINY, 9);
    const optimizer = adam(CONFIG.lr);
    const before = (await modelLogProbs(model)).perEpisode;
    for (let i = 0; i < 3; i++)
      await policyUpdate({ model, optimizer, episodes: EPISODES, advantages: [1, -1], config: CONFIG, step: i + 1 });
    const after = (await modelLogProbs(model)).perEpisode;
    expect(after[0]).toBeGreaterThan(before[0]!);
    expect(after[1]).toBeLessThan(before[1]!);
    optimizer.dispose();
    model.dispose();
  });

  it('with several updates per batch, clips on a later update, and the clipped characters get zero gradient', async () => {
    const model = CharModel.create(TINY, 9);
    const optimizer = adam(0.05);
    const config = { ...CONFIG, updatesPerBatch: 3, clipEps: 0.05 };
    const old = tf.tensor2d((await modelLogProbs(model)).logp); // what policyUpdate freezes first
    const { update } = await policyUpdate({
      model,
      optimizer,
      episodes: EPISODES,
      advantages: [1, -1],
      config,
      step: 1,
    });
    expect(update.clip.region).toBeGreaterThan(0); // the later updates clipped
    expect(update.clip.low + update.clip.high).toBeCloseTo(update.clip.region, 12);

    // Where the clipped objective takes the clipped side, the characters' logits get no gradient.
    const batch = makeTokenBatch(
      EPISODES.map((e) => e.text),
      (_, j) => (WHO[j + 1] === 'm' ? 1 : 0),
    );
    const { inputs, targets } = shiftTokens(batch.tokens);
    const policy = { targets, weights: batch.weights, advantages: tf.tensor1d([1, -1]), oldLogp: old };
    const logits = tf.tidy(() => model.logits(inputs));
    const grad = tf.grad((x: tf.Tensor) => clippedLoss(x as tf.Tensor3D, policy, config.clipEps, 1).loss)(logits);
    const perChar = (await tf.tidy(() => tf.sum(tf.abs(grad), -1)).array()) as number[][];
    const ratio = (await tf.tidy(() => tf.exp(tf.sub(targetLogProbs(logits, targets), old))).array()) as number[][];
    let clipped = 0;
    [1, -1].forEach((adv, i) => {
      for (let j = 0; j < WHO.length - 1; j++) {
        if (WHO[j + 1] !== 'm') continue;
        const r = ratio[i]![j]!;
        const isClipped = adv > 0 ? r > 1 + config.clipEps : r < 1 - config.clipEps;
        if (isClipped) clipped++;
        if (isClipped) expect(perChar[i]![j]).toBe(0);
        else expect(perChar[i]![j]).toBeGreaterThan(0);
      }
    });
    expect(clipped).toBeGreaterThan(0);
    tf.dispose([old, inputs, targets, policy.advantages, logits, grad]);
    disposeBatch(batch);
    optimizer.dispose();
    model.dispose();
  });

  it('averages over every trained character of the batch, those of zero-advantage episodes included', async () => {
    // One rewarded episode (advantage +1, 10 model characters) and one with advantage 0 (10 more).
    // With the ratio ≡ 1 the loss is −Σ A·n / N: −10/20 with the zero-advantage episode counted,
    // −10/10 if it were left out of the denominator as well as out of the pass.
    const model = CharModel.create(TINY, 9);
    const sgd = tf.train.sgd(0.1); // plain SGD: the step scales with the loss, as Adam's would not
    const w0 = await model.params['head.w']!.data();
    const { update } = await policyUpdate({
      model,
      optimizer: sgd,
      episodes: EPISODES,
      advantages: [1, 0],
      config: CONFIG,
      step: 1,
    });
    expect(update.trainedChars).toBe(20);
    expect(update.loss).toBeCloseTo(-0.5, 6);
    const step = (await model.params['head.w']!.data()).map((x, i) => x - w0[i]!);
    // The same update on the rewarded episode alone moves the weights twice as far.
    const alone = CharModel.create(TINY, 9);
    const { update: u1 } = await policyUpdate({
      model: alone,
      optimizer: sgd,
      episodes: EPISODES.slice(0, 1),
      advantages: [1],
      config: CONFIG,
      step: 1,
    });
    expect(u1.loss).toBeCloseTo(-1, 6);
    const stepAlone = (await alone.params['head.w']!.data()).map((x, i) => x - w0[i]!);
    const k = stepAlone.findIndex((d) => Math.abs(d) > 1e-6);
    expect(step[k]! / stepAlone[k]!).toBeCloseTo(0.5, 4);
    sgd.dispose();
    model.dispose();
    alone.dispose();
  });

  it('frees every tensor when the loss is not finite', async () => {
    const model = CharModel.create(TINY, 9);
    const optimizer = adam(CONFIG.lr);
    const bias = model.params['head.b']!;
    bias.assign(tf.tidy(() => tf.fill(bias.shape, NaN)));
    const before = tf.memory().numTensors;
    await expect(
      policyUpdate({ model, optimizer, episodes: EPISODES, advantages: [1, -1], config: CONFIG, step: 1 }),
    ).rejects.toBeInstanceOf(NonFiniteLossError);
    expect(tf.memory().numTensors).toBe(before);
    optimizer.dispose();
    model.dispose();
  });

  it('frees every tensor when the model’s forward throws inside the update', async () => {
    const model = CharModel.create(TINY, 9);
    const optimizer = adam(CONFIG.lr);
    const logits = model.logits.bind(model);
    model.logits = (tokens, opts) => {
      logits(tokens, opts); // the tape has saved tensors for a backward pass by now
      throw new Error('forward failed');
    };
    const before = tf.memory().numTensors;
    await expect(
      policyUpdate({ model, optimizer, episodes: EPISODES, advantages: [1, -1], config: CONFIG, step: 1 }),
    ).rejects.toThrow('forward failed');
    await expect(
      policyUpdate({
        model,
        optimizer,
        episodes: EPISODES,
        advantages: [1, -1],
        config: { ...CONFIG, updatesPerBatch: 2 },
        step: 1,
      }),
    ).rejects.toThrow('forward failed');
    expect(tf.memory().numTensors).toBe(before);
    optimizer.dispose();
    model.dispose();
  });
});
