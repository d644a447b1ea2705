// A step's work in parts (model/parts.ts), as the plain-JavaScript backend runs it for an engine
// without its JIT: the same episodes, the same update up to float rounding, every part reported,
// and a step abandoned between parts frees what it held.
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRPO, type GrpoConfig } from '../../src/config';
import { reliableCalculator } from '../../src/env/calculator';
import { SPLIT } from '../../src/env/sums';
import { createRng } from '../../src/lib/rng';
import { decodeCheckpoint } from '../../src/model/checkpoint';
import { CharModel } from '../../src/model/gpt';
import { transcriptLogProbs } from '../../src/model/logprobs';
import type { PartSizes, WorkProgress } from '../../src/model/parts';
import { makeTokenBatches, supervisedStep } from '../../src/model/supervised';
import { evaluationRows } from '../../src/rl/evaluate';
import { GrpoStage } from '../../src/rl/grpo';
import { policyUpdate } from '../../src/rl/update';
import { episodeAdvantages } from '../../src/rl/credit';
import { readCheckpointFiles, shippedFor } from '../../src/node/checkpoint-fs';
import { rolloutRows } from '../../src/rl/rollout';
import { TINY, useWasm } from '../tf';

beforeAll(async () => {
  await tf.setBackend('cpu');
  await tf.ready();
});
afterAll(useWasm);

const PARTS: PartSizes = { rolloutRows: 3, updateRows: 2, forwardRows: 3 };
const SMALL: GrpoConfig = { ...GRPO, sumsPerStep: 2, episodesPerSum: 4, lr: 1e-2, temperature: 1.5 };
const heldOutSums = SPLIT.heldOut.slice(0, 5);

/** Held-out rows (greedy) beside sampled ones, as the evaluation and the next step's sampling share a batch. */
/** The shipped agent: sampled at 1.5 its groups' rewards spread, so an update has something to push. */
function agent(): CharModel {
  const files = readCheckpointFiles(shippedFor('one-call').agent);
  return decodeCheckpoint(files.manifest, files.weights, files.where);
}

const mixedRows = () => [
  ...evaluationRows(heldOutSums),
  ...SPLIT.train
    .slice(0, 6)
    .map((sum) => ({ sum, calculator: reliableCalculator, grader: 'exact' as const, greedy: false })),
];

describe('a step in parts', () => {
  it('samples the same episodes, bit for bit, a few rows at a time as all at once', async () => {
    const model = CharModel.create(TINY, 3);
    const run = (rowsPerPart?: number) =>
      rolloutRows(model, mixedRows(), { temperature: 1.5, rng: createRng(5), rowsPerPart, onPart: () => undefined });
    const whole = await run();
    const parts = await run(3);
    expect(parts).toEqual(whole);
    const texts = whole.map((e) => e.text);
    expect(await transcriptLogProbs(model, texts, 1.5, { rowsPerPart: 3 })).toEqual(
      await transcriptLogProbs(model, texts, 1.5),
    );
    model.dispose();
  });

  it('updates as one batch would, up to float rounding, reporting every part in order, with tensors flat', async () => {
    const stage = (parts?: PartSizes) => {
      const model = agent();
      return { model, stage: new GrpoStage({ model, config: SMALL, seed: 2, heldOutSums, parts }) };
    };
    const whole = stage();
    const inParts = stage(PARTS);
    const reports: WorkProgress[] = [];
    const between = (p: WorkProgress) => void reports.push(p);
    const w0 = await whole.stage.initial();
    const p0 = await inParts.stage.initial(between);
    expect(p0.heldOut).toBe(w0.heldOut);
    const w1 = await whole.stage.next();
    const p1 = await inParts.stage.next(between);
    expect(p1.episodes.map((e) => e.text)).toEqual(w1.episodes.map((e) => e.text));
    expect(p1.episodes.some((e) => e.advantage !== 0)).toBe(true);
    expect(p1.loss).not.toBe(0);
    expect(p1.loss).toBeCloseTo(w1.loss!, 6);
    const [a, b] = [await whole.model.params['head.w']!.data(), await inParts.model.params['head.w']!.data()];
    expect(Math.max(...a.map((x, i) => Math.abs(x - b[i]!)))).toBeLessThan(1e-6);
    // Step 0's evaluation (5 held-out and 8 sampled rows: 5 parts a position), then step 1's update
    // (its 8 episodes 2 at a time, the push's passes) and evaluation, each report further on.
    const order = ['sampling', 'update', 'evaluation'];
    expect(reports.length).toBeGreaterThan(20);
    for (const [i, r] of reports.entries()) {
      expect(r.done).toBeLessThanOrEqual(r.of);
      if (i > 0 && reports[i - 1]!.done < r.done) continue;
      // A new record starts counting again.
      expect(r.done).toBeLessThan(reports[i - 1]?.done ?? Infinity);
    }
    const step1 = reports.slice(reports.findIndex((r) => r.phase === 'update'));
    expect(step1.map((r) => order.indexOf(r.phase))).toEqual(step1.map((r) => order.indexOf(r.phase)).sort());
    expect(step1.filter((r) => r.phase === 'update').length).toBeGreaterThanOrEqual(4);
    const tensors = tf.memory().numTensors;
    await inParts.stage.next(between);
    expect(tf.memory().numTensors).toBe(tensors);
    for (const s of [whole, inParts]) {
      s.stage.dispose();
      s.model.dispose();
    }
  });

  it('abandoned between parts of its update, frees every tensor and leaves the weights as they were', async () => {
    const model = agent();
    const rows = SPLIT.train.slice(0, 2).flatMap((sum) =>
      Array.from({ length: 8 }, () => ({
        sum,
        calculator: reliableCalculator,
        grader: 'exact' as const,
        greedy: false,
      })),
    );
    const episodes = await rolloutRows(model, rows, { temperature: 1.5, rng: createRng(3) });
    const advantages = episodeAdvantages(
      episodes.map((e) => e.reward),
      SMALL,
    );
    expect(advantages.some((a) => a !== 0)).toBe(true);
    const update = (onPart: () => Promise<void> | undefined) =>
      policyUpdate({ model, optimizer, episodes, advantages, config: SMALL, step: 1, rowsPerPart: 2, onPart });
    const tensors = tf.memory().numTensors;
    const optimizer = tf.train.adam(1e-2);
    const weights = await model.params['head.w']!.data();
    // Abandoned at its last part's report: every gradient is computed, none applied.
    let parts = 0;
    await update(() => void parts++);
    expect(parts).toBeGreaterThanOrEqual(2);
    const changed = await model.params['head.w']!.data();
    expect(changed).not.toEqual(weights);
    tf.tidy(() => model.params['head.w']!.assign(tf.tensor(weights, model.params['head.w']!.shape)));
    const optimizer2 = tf.train.adam(1e-2);
    let n = 0;
    const abandon = () => (++n === parts ? Promise.reject(new Error('reset')) : undefined);
    await expect(
      policyUpdate({
        model,
        optimizer: optimizer2,
        episodes,
        advantages,
        config: SMALL,
        step: 1,
        rowsPerPart: 2,
        onPart: abandon,
      }),
    ).rejects.toThrow('reset');
    expect(await model.params['head.w']!.data()).toEqual(weights);
    optimizer.dispose();
    optimizer2.dispose();
    expect(tf.memory().numTensors).toBe(tensors);
    model.dispose();
  });

  it('in a supervised step, sums its parts’ gradients to one batch’s loss', async () => {
    const rows = ['^3+4=7|', '^1+2=3|', '^9+9=18|', '^12+30=42|', '^5+5=10|'];
    const losses = [];
    for (const maxRows of [undefined, 2]) {
      const model = CharModel.create(TINY, 4);
      const optimizer = tf.train.adam(1e-3);
      const batch = makeTokenBatches(rows, () => 1, maxRows);
      let parts = 0;
      const opts = { lr: 1e-3, weightDecay: 0, eachBatchAPart: maxRows !== undefined, onPart: () => void parts++ };
      losses.push(await supervisedStep(model, optimizer, batch, opts));
      expect(parts).toBe(batch.length);
      tf.dispose(batch.flatMap((b) => [b.tokens, b.weights]));
      optimizer.dispose();
      model.dispose();
    }
    expect(losses[1]).toBeCloseTo(losses[0]!, 6);
  });
});
