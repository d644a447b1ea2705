// The push of a GRPO step: every character's log-probability before the update and after it, as
// the trainer records them, and the plate's lede checked on real steps over seeds.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../src/node/checkpoint-fs';
import { runWorkshop } from '../../src/node/run-workshop';
import { GRPO } from '../../src/config';
import { CharModel } from '../../src/model/gpt';
import { transcriptLogProbs } from '../../src/model/logprobs';
import { GrpoStage, type GrpoRecord } from '../../src/rl/grpo';
import {
  alignment,
  groupAlignments,
  meanLogpChange,
  modelChars,
  timesAsLikely,
  type PushedEpisode,
} from '../../src/rl/push';
import { TINY, useWasm } from '../tf';

beforeAll(useWasm);

/** A model with `model`'s weights, as they are now (a snapshot the update cannot touch). */
function snapshot(model: CharModel): CharModel {
  const params = Object.fromEntries(Object.entries(model.params).map(([k, v]) => [k, tf.variable(v.clone(), false)]));
  return new CharModel(model.config, params);
}

const pushed = (r: GrpoRecord): PushedEpisode[] =>
  r.episodes.map((e) => ({ advantage: e.advantage, logp: e.logp, chars: modelChars(e.authors) }));

describe('the push a GRPO step records', () => {
  it('is each character’s log-probability under the weights before the update and after it, for every episode', async () => {
    const { model } = loadCheckpoint('public/checkpoints/agent');
    const stage = new GrpoStage({ model, config: GRPO, seed: 1 });
    await stage.initial();
    const old = snapshot(model);
    const r = await stage.next();
    const texts = r.episodes.map((e) => e.text);
    const [before, after] = [
      await transcriptLogProbs(old, texts, GRPO.temperature),
      await transcriptLogProbs(model, texts, GRPO.temperature),
    ];
    // Seed 1's first step has a group whose eight rewards are equal: the update leaves it out, and
    // its "before" comes from a pass of its own; the others' from the update's forward.
    expect(r.episodes.some((e) => e.advantage === 0) && r.episodes.some((e) => e.advantage !== 0)).toBe(true);
    r.episodes.forEach((e, i) => {
      expect(e.logp.before).toHaveLength(e.text.length - 1);
      expect(Array.from(e.logp.after)).toEqual(Array.from(after[i]!));
      // The update's forward ran in batches of another make-up: the same sums up to float rounding.
      Array.from(e.logp.before).forEach((x, j) => expect(x).toBeCloseTo(before[i]![j]!, 5));
    });
    // The update moved them.
    expect(r.episodes.every((e) => Array.from(e.logp.before).some((x, j) => x !== e.logp.after[j]))).toBe(true);
    stage.dispose();
    old.dispose();
    model.dispose();
  });

  it('reads log-probs at the sampling temperature, one per character after the first, leaving no tensor behind', async () => {
    const model = CharModel.create(TINY, 3);
    const texts = ['^23+45=B23+45|68|68|', '^23+45=B2', '^23+45=B23+45|68|68|'];
    const count = tf.memory().numTensors;
    const [a, b, c] = await transcriptLogProbs(model, texts, 1);
    const hot = await transcriptLogProbs(model, texts, 1.5);
    expect(tf.memory().numTensors).toBe(count);
    expect([a!.length, b!.length]).toEqual([19, 8]);
    expect(c).toEqual(a); // one forward per distinct transcript
    expect(Array.from(b!)).toEqual(Array.from(a!.slice(0, 8))); // causal: padding after a shorter row changes nothing before it
    expect(hot[0]![10]).not.toBeCloseTo(a![10]!, 4);
    for (const x of a!) expect(x).toBeLessThan(0);
    model.logits = () => {
      throw new Error('forward failed');
    };
    await expect(transcriptLogProbs(model, texts, 1)).rejects.toThrow('forward failed');
    expect(tf.memory().numTensors).toBe(count);
    model.dispose();
  });
});

describe('the push in numbers', () => {
  // Two characters: p 0.5 → 0.8 and 0.2 → 0.2; logp index j is character j + 1.
  const logp = { before: [Math.log(0.5), Math.log(0.2)], after: [Math.log(0.8), Math.log(0.2)] };

  it('averages the change in log-probability over the characters asked for, and reads it as “× as likely”', () => {
    expect(meanLogpChange(logp, [1])).toBeCloseTo(Math.log(1.6), 12);
    expect(meanLogpChange(logp, [1, 2])).toBeCloseTo(Math.log(1.6) / 2, 12);
    expect(timesAsLikely(logp, [1, 2])).toBeCloseTo(Math.sqrt(1.6), 12); // the geometric mean of 1.6 and 1
    expect(meanLogpChange(logp, [])).toBe(0);
  });

  it('finds the model’s characters by author, as rl/ spells them and as the page codes them', () => {
    expect(modelChars(['prompt', 'model', 'env', 'model'])).toEqual([1, 3]);
    expect(modelChars('pppmmeem')).toEqual([3, 4, 7]);
  });

  it('weighs each episode’s mean change by its advantage, per batch and per group', () => {
    const up = { before: [Math.log(0.5)], after: [Math.log(0.8)] }; // +0.47
    const down = { before: [Math.log(0.5)], after: [Math.log(0.4)] }; // −0.22
    const eps: PushedEpisode[] = [
      { advantage: 1, logp: up, chars: [1] }, // pushed up, as it should be: +0.47
      { advantage: -1, logp: up, chars: [1] }, // pushed up against its advantage: −0.47
      { advantage: -1, logp: down, chars: [1] }, // pushed down, as it should be: +0.22
      { advantage: 0, logp: down, chars: [1] }, // no signal: counts 0 whatever moved
    ];
    expect(alignment(eps)).toBeCloseTo(Math.log(0.8 / 0.5) - Math.log(0.8 / 0.5) + Math.log(0.5 / 0.4), 12);
    expect(groupAlignments(eps, 2)).toEqual([alignment(eps.slice(0, 2)), alignment(eps.slice(2))]);
    expect(groupAlignments(eps, 2)[0]).toBeCloseTo(0, 12);
  });
});

describe('the lede, “push up the episodes that scored well”, over seeds', () => {
  it('holds for the whole batch at every step, and for most single groups but not all', async () => {
    let steps = 0;
    let batchHolds = 0;
    let groups = 0;
    let groupHolds = 0;
    for (const seed of [1, 2, 3]) {
      const { records } = await runWorkshop({ start: 'agent', faulty: false, seed, steps: 12 });
      for (const r of records.filter((x) => x.step > 0)) {
        const eps = pushed(r);
        steps++;
        if (alignment(eps) > 0) batchHolds++;
        groupAlignments(eps, GRPO.episodesPerSum).forEach((score, g) => {
          if (eps.slice(g * 8, g * 8 + 8).every((e) => e.advantage === 0)) return expect(score).toBe(0);
          groups++;
          if (score > 0) groupHolds++;
        });
      }
    }
    console.log(
      `lede over seeds 1–3 × 12 steps: batch ${batchHolds}/${steps}, groups with a signal ${groupHolds}/${groups}`,
    );
    expect(batchHolds).toBe(steps);
    // One update serves eight groups through shared weights: a group can be pushed against its
    // advantages. Measured (scripts/push-alignment.ts, seeds 1–3 × 40 steps): 92.7% of groups hold.
    expect(groupHolds / groups).toBeGreaterThan(0.8);
    expect(groupHolds).toBeLessThan(groups);
  }, 120_000);
});
