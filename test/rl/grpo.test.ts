import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { GRPO, type GrpoConfig } from '../../src/config';
import type { Author } from '../../src/env/episode';
import { SPLIT } from '../../src/env/sums';
import { CharModel } from '../../src/model/gpt';
import { trainedCount } from '../../src/rl/credit';
import { GrpoStage, type GrpoRecord } from '../../src/rl/grpo';
import { NonFiniteLossError } from '../../src/model/non-finite';
import { policyUpdate } from '../../src/rl/update';
import { TINY, useWasm } from '../tf';

beforeAll(useWasm);

/** 'pppm…' → the authors of each character. */
const authorsOf = (codes: string): Author[] =>
  [...codes].map((c) => ({ p: 'prompt', m: 'model', e: 'env' })[c] as Author);

const SMALL: GrpoConfig = { ...GRPO, sumsPerStep: 2, episodesPerSum: 4, lr: 1e-2 };
const heldOutSums = SPLIT.heldOut.slice(0, 4);

function trainer(seed = 1, faulty = false, config = SMALL) {
  const model = CharModel.create(TINY, 9);
  const calculator = faulty ? 'faulty' : 'reliable';
  return { model, trainer: new GrpoStage({ model, config: { ...config, calculator }, seed, heldOutSums }) };
}

/** Step 0 and the next `n` steps' records. */
async function firstSteps(t: GrpoStage, n: number): Promise<GrpoRecord[]> {
  const out = [await t.initial()];
  while (out.length <= n) out.push(await t.next());
  return out;
}

describe('the GRPO stage', () => {
  it('yields step 0 (evaluation only) and then one record per step', async () => {
    const { model, trainer: t } = trainer();
    const records = [];
    records.push(...(await firstSteps(t, 2)));
    expect(records.map((r) => r.step)).toEqual([0, 1, 2]);
    expect(records[0]!.meanReward).toBeNull();
    const r = records[1]!;
    expect(r.episodes).toHaveLength(8);
    expect(r.heldOutN).toBe(4);
    expect(r.meanReward).toBe(r.episodes.reduce((t, e) => t + e.reward, 0) / r.episodes.length);
    for (const e of r.episodes) expect(e.authors).toHaveLength(e.text.length);
    // The loss is the one mean over every trained character: −Σ advantage · n_i / Σ n_i (ratio ≡ 1).
    const n = r.episodes.map((e) => trainedCount(e.authors, 'model'));
    expect(r.trainedChars).toBe(n.reduce((a, b) => a + b, 0));
    expect(r.modelChars).toBe(r.trainedChars);
    expect(r.loss).toBeCloseTo(-r.episodes.reduce((t, e, i) => t + e.advantage * n[i]!, 0) / r.trainedChars, 5);
    t.dispose();
    model.dispose();
  });

  it('changes the weights with an update on a group with reward spread', async () => {
    const model = CharModel.create(TINY, 9);
    const before = await model.params['head.w']!.data();
    const opt = tf.train.adam(1e-2);
    const authors = authorsOf('pppppppmmmmmmmeeemmm');
    const episodes = [
      { text: '^23+45=B23+45|68|68|', authors },
      { text: '^23+45=B23+45|68|61|', authors },
    ];
    await policyUpdate({ model, optimizer: opt, episodes, advantages: [1, -1], config: SMALL, step: 1 });
    expect(await model.params['head.w']!.data()).not.toEqual(before);
    opt.dispose();
    model.dispose();
  });

  it('leaves the weights as they were when every advantage is zero', async () => {
    const model = CharModel.create(TINY, 9);
    const before = await model.params['head.w']!.data();
    const opt = tf.train.sgd(1e-1);
    const authors = authorsOf('pppppppmmmmmmmeeemmm');
    await policyUpdate({
      model,
      optimizer: opt,
      episodes: [{ text: '^23+45=B23+45|68|68|', authors }],
      advantages: [0],
      config: SMALL,
      step: 1,
    });
    expect(await model.params['head.w']!.data()).toEqual(before);
    opt.dispose();
    model.dispose();
  });

  it('is reproducible for a seed and differs across seeds', async () => {
    const rewards = async (seed: number) => {
      const { model, trainer: t } = trainer(seed);
      const out: string[] = [];
      for (const r of await firstSteps(t, 2)) out.push(r.episodes.map((e) => e.text).join(','));
      t.dispose();
      model.dispose();
      return out;
    };
    expect(await rewards(3)).toEqual(await rewards(3));
    expect(await rewards(3)).not.toEqual(await rewards(4));
  });

  it('keeps the tensor count flat across steps after a warm-up step', async () => {
    const { model, trainer: t } = trainer();
    await t.initial();
    await t.next(); // warm-up creates Adam's slots
    const before = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) await t.next();
    expect(tf.memory().numTensors).toBe(before);
    t.dispose();
    model.dispose();
  });

  it('stops with NonFiniteLossError, before updating, when the loss is not finite', async () => {
    const model = CharModel.create(TINY, 9);
    const bad = model.params['head.b']!;
    bad.assign(tf.fill(bad.shape, NaN));
    const before = await model.params['head.w']!.data();
    const opt = tf.train.adam(1e-2);
    const authors = authorsOf('pppppppmm');
    await expect(
      policyUpdate({
        model,
        optimizer: opt,
        episodes: [{ text: '^23+45=B2', authors }],
        advantages: [1],
        config: SMALL,
        step: 7,
      }),
    ).rejects.toBeInstanceOf(NonFiniteLossError);
    // Also when no episode carries a signal (a broken model earns nothing, so every group is flat).
    const flat = [
      { text: '^23+45=B2', authors },
      { text: '^23+45=B2', authors },
    ];
    await expect(
      policyUpdate({ model, optimizer: opt, episodes: flat, advantages: [0, 0], config: SMALL, step: 8 }),
    ).rejects.toBeInstanceOf(NonFiniteLossError);
    expect(await model.params['head.w']!.data()).toEqual(before);
    opt.dispose();
    model.dispose();
  });
});
