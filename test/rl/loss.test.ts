import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { clippedLoss, type PolicyBatch } from '../../src/rl/loss';
import { CharModel } from '../../src/model/gpt';
import { shiftTokens } from '../../src/model/logprobs';
import { makeTokenBatch } from '../../src/model/supervised';
import { TINY, useWasm } from '../tf';

beforeAll(useWasm);

const logSoftmax = (xs: number[]) => {
  const m = Math.log(xs.reduce((s, x) => s + Math.exp(x), 0));
  return xs.map((x) => x - m);
};

describe('the clipped loss', () => {
  it('matches a hand computation on a tiny case, and counts the clip’s low and high sides as TRL does', async () => {
    // Three episodes, two positions, vocabulary of 3; advantages +1, −1, +1. The old log-probs put
    // one character on each side of the clip: episode 0 above 1 + ε with A > 0 (clipped: high),
    // episode 1 below 1 − ε with A < 0 (clipped: low), episode 2 below 1 − ε with A > 0, where the
    // min keeps the unclipped side (a loss without the min would differ there).
    const logitsArr = [
      [
        [2, 0, 0],
        [0, 1, 0],
      ],
      [
        [0, 0, 3],
        [1, 1, 1],
      ],
      [
        [0, 0, 0],
        [0, 0, 0],
      ],
    ];
    const targets = [
      [0, 1],
      [0, 0],
      [1, 1],
    ];
    const weights = [
      [1, 1],
      [1, 0],
      [1, 0],
    ]; // the last characters of episodes 1 and 2 were the environment's
    const oldLogp = [
      [-0.5, -1.2],
      [-0.3, -1.0],
      [-0.5, -0.5],
    ];
    const adv = [1, -1, 1];
    const eps = 0.2;
    let sum = 0;
    let clippedCount = 0;
    let low = 0;
    let high = 0;
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 2; j++) {
        if (!weights[i]![j]) continue;
        const logp = logSoftmax(logitsArr[i]![j]!)[targets[i]![j]!]!;
        const r = Math.exp(logp - oldLogp[i]![j]!);
        const a = adv[i]!;
        const clippedR = Math.min(Math.max(r, 1 - eps), 1 + eps);
        sum += Math.min(r * a, clippedR * a);
        if (clippedR * a < r * a) clippedCount++;
        if (r < 1 - eps && a < 0) low++;
        if (r > 1 + eps && a > 0) high++;
      }
    }
    const expected = -sum / 4;
    const batch: PolicyBatch = {
      targets: tf.tensor2d(targets, undefined, 'int32'),
      weights: tf.tensor2d(weights),
      advantages: tf.tensor1d(adv),
      oldLogp: tf.tensor2d(oldLogp),
    };
    const logits = tf.tensor3d(logitsArr);
    const { loss, clipped } = clippedLoss(logits, batch, eps, 1);
    expect((await loss.data())[0]).toBeCloseTo(expected, 5);
    // The case exercises both sides: episode 0 (A > 0) above 1 + ε, episode 1 (A < 0) below 1 − ε.
    expect([low, high]).toEqual([1, 2]);
    expect([(await clipped.low.data())[0], (await clipped.high.data())[0]]).toEqual([low, high]);
    // Where the clip acts is where the min takes the clipped side: low + high is the region.
    expect(low + high).toBe(clippedCount);
    tf.dispose([
      loss,
      clipped.low,
      clipped.high,
      logits,
      batch.targets,
      batch.weights,
      batch.advantages,
      batch.oldLogp!,
    ]);
  });

  it('has ratio 1 and never clips when the old policy is the current one', async () => {
    const logits = tf.randomNormal([3, 4, 16], 0, 2, 'float32', 1) as tf.Tensor3D;
    const batch: PolicyBatch = {
      targets: tf.tensor2d(
        [
          [1, 2, 3, 4],
          [5, 6, 7, 8],
          [9, 10, 11, 12],
        ],
        undefined,
        'int32',
      ),
      weights: tf.ones([3, 4]) as tf.Tensor2D,
      advantages: tf.tensor1d([2, -1, 0.5]),
    };
    const { clipped, loss, logp } = clippedLoss(logits, batch, 0.2, 1);
    expect([(await clipped.low.data())[0], (await clipped.high.data())[0]]).toEqual([0, 0]);
    tf.dispose([logits, clipped.low, clipped.high, loss, logp, batch.targets, batch.weights, batch.advantages]);
  });
});

describe('observation masking', () => {
  it('gives exactly zero gradient to the logits at prompt and environment positions, and non-zero at the model’s', async () => {
    const authors = 'ppppmmmeemm'; // who wrote each target character
    const L = authors.length;
    const weights = [[...authors].map((a) => (a === 'm' ? 1 : 0))];
    const batch: PolicyBatch = {
      targets: tf.tensor2d([Array.from({ length: L }, (_, j) => (j * 5) % 16)], undefined, 'int32'),
      weights: tf.tensor2d(weights),
      advantages: tf.tensor1d([1.5]),
    };
    const logits = tf.randomNormal([1, L, 16], 0, 1, 'float32', 3) as tf.Tensor3D;
    const grad = tf.grad((x: tf.Tensor) => clippedLoss(x as tf.Tensor3D, batch, 0.2, 1).loss)(logits);
    const perPosition = await tf.tidy(() => tf.sum(tf.abs(grad), -1)).data(); // [1, L] → L values
    [...authors].forEach((a, j) => {
      if (a === 'm') expect(perPosition[j]).toBeGreaterThan(0);
      else expect(perPosition[j]).toBe(0);
    });
    tf.dispose([logits, grad, batch.targets, batch.weights, batch.advantages]);
  });
});

describe('leaving out episodes whose advantage is 0', () => {
  it('gives the same loss and the same gradients, when their characters stay in the count', async () => {
    const model = CharModel.create(TINY, 4);
    const texts = ['^23+45=B23+45|68|68|', '^23+45=B23+45|68|61|', '^11+22=B11+22|33|33|', '^11+22=B11+22|33|33|'];
    const who = 'pppppppmmmmmmmeeemmm';
    const adv = [1, -1, 0, 0]; // the second group has no spread
    const lossOf = (rows: number[], modelChars?: number) => {
      const b = makeTokenBatch(
        rows.map((r) => texts[r]!),
        (_, j) => (who[j + 1] === 'm' ? 1 : 0),
      );
      const { inputs, targets } = shiftTokens(b.tokens);
      const policy: PolicyBatch = {
        targets,
        weights: b.weights,
        advantages: tf.tensor1d(rows.map((r) => adv[r]!)),
        trainedChars: modelChars,
      };
      const out = tf.variableGrads(() => clippedLoss(model.logits(inputs), policy, 0.2, 1).loss, model.trainable);
      tf.dispose([b.tokens, b.weights, inputs, targets, policy.advantages]);
      return out;
    };
    const full = lossOf([0, 1, 2, 3]);
    const kept = lossOf([0, 1], 4 * 10); // 10 model characters per transcript
    expect((await kept.value.data())[0]).toBeCloseTo((await full.value.data())[0]!, 6);
    for (const name of Object.keys(full.grads)) {
      const diff = tf.tidy(() => tf.max(tf.abs(tf.sub(full.grads[name]!, kept.grads[name]!))));
      expect((await diff.data())[0]).toBeLessThan(1e-6);
      diff.dispose();
    }
    tf.dispose([full.value, kept.value, ...Object.values(full.grads), ...Object.values(kept.grads)]);
    model.dispose();
  });
});
