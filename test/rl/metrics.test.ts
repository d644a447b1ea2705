// The numbers a GRPO practitioner reads, under TRL's names: each recomputed from what it counts.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { GRPO } from '../../src/config';
import { reliableCalculator } from '../../src/env/calculator';
import type { KvCache } from '../../src/model/gpt';
import { VOCAB } from '../../src/model/vocab';
import { GrpoStage, type GrpoRecord } from '../../src/rl/grpo';
import { METRIC_NAMES, stepMetrics } from '../../src/rl/metrics';
import { entropyAt, rollout, type Policy } from '../../src/rl/rollout';
import { loadCheckpoint, SHIPPED } from '../../src/node/checkpoint-fs';
import { runWorkshop } from '../../src/node/run-workshop';
import { TINY, useWasm } from '../tf';

beforeAll(useWasm);

const V = VOCAB.length;

/** A policy that puts the same weight on every character. */
const uniform: Policy = {
  config: TINY,
  forward(tokens: tf.Tensor2D) {
    const [B, T] = tokens.shape;
    const cache: KvCache = { kind: 'layers', k: [], v: [] };
    return { logits: tf.zeros([B, T, V]) as tf.Tensor3D, cache };
  },
};

const sampled = (r: GrpoRecord) => ({ ...r, sampled: r.episodes.length });

async function oneStep(updatesPerBatch: number): Promise<GrpoRecord> {
  const { model } = loadCheckpoint(SHIPPED.agent);
  const stage = new GrpoStage({ model, config: { ...GRPO, steps: 1, updatesPerBatch }, seed: 1 });
  try {
    await stage.initial();
    return await stage.next();
  } finally {
    stage.dispose();
    tf.dispose(model.trainable);
  }
}

describe('the policy’s entropy', () => {
  it('of a uniform distribution over the 16 characters is ln 16, the most it can be', async () => {
    expect(entropyAt(new Float32Array(V).fill(1 / V), 0, V)).toBeCloseTo(Math.log(16), 6);
    expect(entropyAt([0, 1, 0], 0, 3)).toBe(0);
    const [e] = await rollout(uniform, [{ a: 23, b: 45 }], {
      calculator: reliableCalculator,
      temperature: 1,
      greedy: true,
    });
    const modelChars = e!.authors.filter((a) => a === 'model').length;
    expect(modelChars).toBeGreaterThan(0);
    expect(e!.modelEntropy / modelChars).toBeCloseTo(Math.log(16), 5);
  });
});

describe('a GRPO step’s metrics', () => {
  it('carry exactly TRL’s names, and each is what its episodes say', async () => {
    const r = await oneStep(1);
    const m = stepMetrics(sampled(r))!;
    expect(Object.keys(m)).toEqual([...METRIC_NAMES]);
    expect(m.step).toBe(1);
    expect(m.reward).toBe(r.meanReward);
    // Recomputed from the episodes, group by group (8 consecutive episodes share a sum).
    const groups = Array.from({ length: GRPO.sumsPerStep }, (_, g) =>
      r.episodes.slice(g * GRPO.episodesPerSum, (g + 1) * GRPO.episodesPerSum).map((e) => e.reward),
    );
    const sampleStd = (xs: number[]) => {
      const mu = xs.reduce((s, x) => s + x, 0) / xs.length;
      return Math.sqrt(xs.reduce((s, x) => s + (x - mu) ** 2, 0) / (xs.length - 1));
    };
    expect(m.frac_reward_zero_std).toBe(groups.filter((g) => g.every((x) => x === g[0])).length / groups.length);
    expect(m.frac_reward_zero_std).toBeGreaterThan(0); // this step has groups that teach nothing…
    expect(m.frac_reward_zero_std).toBeLessThan(1); // …and groups that do
    const every = (r: number) => groups.filter((g) => g.every((x) => x === r)).length / groups.length;
    expect(m['frac_reward_zero_std/all_fail']).toBe(every(0));
    expect(m['frac_reward_zero_std/all_pass']).toBe(every(1));
    expect(m['frac_reward_zero_std/all_fail'] + m['frac_reward_zero_std/all_pass']).toBe(m.frac_reward_zero_std);
    // prime-rl's names for the same split, and the groups left that teach.
    expect(m['reward/solve_none']).toBe(every(0));
    expect(m['reward/solve_all']).toBe(every(1));
    expect(m['reward/effective_batch_size']).toBeCloseTo(
      groups.filter((g) => g.some((x) => x !== g[0])).length / groups.length,
      12,
    );
    expect(m.reward_std).toBeCloseTo(groups.reduce((s, g) => s + sampleStd(g), 0) / groups.length, 12);
    const modelChars = r.episodes.reduce((n, e) => n + e.authors.filter((a) => a === 'model').length, 0);
    expect(m['completions/mean_length']).toBe(modelChars / r.episodes.length);
    const failed = r.episodes.filter((e) => e.reason === 'malformed call' || e.reason === 'over-long call');
    const began = [...r.episodes.filter((e) => e.result !== null), ...failed];
    expect(m['tools/call_frequency']).toBe(began.length / r.episodes.length);
    expect(m['tools/failure_frequency']).toBe(failed.length / began.length);
    expect(m.entropy).toBeGreaterThan(0);
    expect(m.entropy).toBeLessThan(Math.log(16));
  });

  it('clip nothing at one update per batch, by construction: the ratio is exactly 1', async () => {
    const m = stepMetrics(sampled(await oneStep(1)))!;
    expect([m['clip_ratio/low_mean'], m['clip_ratio/high_mean'], m['clip_ratio/region_mean']]).toEqual([0, 0, 0]);
  });

  it('clip at four updates per batch on a seeded run, low + high making the region', async () => {
    const { records } = await runWorkshop({ seed: 1, steps: 3, updatesPerBatch: 4 });
    const clips = records.slice(1).map((r) => r.clip!);
    expect(clips.some((c) => c.region > 0)).toBe(true);
    for (const c of clips) expect(c.low + c.high).toBeCloseTo(c.region, 12);
  });

  it('are null at step 0, which samples nothing', async () => {
    const { model } = loadCheckpoint(SHIPPED.agent);
    const stage = new GrpoStage({ model, config: { ...GRPO, steps: 1 }, seed: 1 });
    expect(stepMetrics(sampled(await stage.initial()))).toBeNull();
    stage.dispose();
    tf.dispose(model.trainable);
  });
});
