/**
 * The policy update of one GRPO step: the clipped objective over the sampled episodes'
 * characters it covers (rl/credit.ts), `updatesPerBatch` Adam steps on the same batch. In parts
 * of `rowsPerPart` episodes (model/parts.ts), each Adam step takes the sum of the parts'
 * gradients: the same loss and gradient as one batch, up to float rounding.
 */
import * as tf from '@tensorflow/tfjs';
import type { GrpoConfig } from '../config';
import type { Author } from '../env/episode';
import type { CharModel } from '../model/gpt';
import { shiftTokens, targetLogProbs } from '../model/logprobs';
import { addGrads, variableGrads } from '../model/gradients';
import { NonFiniteLossError } from '../model/non-finite';
import { UNITS, type PartDone } from '../model/parts';
import { disposeBatch, makeTokenBatches, type BucketBatch } from '../model/supervised';
import { trainedCount, trainedOn } from './credit';
import { clippedLoss, type PolicyBatch } from './loss';

/**
 * Where the clip acted over the step's updates, as fractions of the batch's model characters
 * (every episode's, zero advantage or not), averaged over the updates as TRL logs them: low + high
 * = region. At one update per batch all three are exactly 0 (the ratio is 1).
 */
export interface ClipFractions {
  low: number;
  high: number;
  region: number;
}

export interface UpdateResult {
  /** trainedChars: the characters the loss covered, the mean's denominator (every episode's, zero advantage or not). */
  update: { loss: number; clip: ClipFractions; trainedChars: number };
  /**
   * Per episode, the log-probability of each character after the first under the policy before
   * this update (the first update's forward pass reads them anyway), or null for an episode the
   * update left out (see updateRows). before[i][j] is character j + 1 of episode i.
   */
  before: (Float32Array | null)[];
  /**
   * Milliseconds: the frozen log-probs (0 with one update per batch), the gradient steps, and
   * reading back `before` (part of the push the page shows, not of the update).
   */
  timings: { logprobs: number; gradient: number; before: number };
}

type UpdateConfig = Pick<GrpoConfig, 'updatesPerBatch' | 'clipEps' | 'temperature' | 'lossMask'>;

/**
 * The episodes the update runs forward and backward: those with a non-zero advantage. An episode
 * with advantage 0 (every episode of a zero-spread group) adds exactly 0 to the objective and its
 * gradient, so it is left out — its characters stay in the mean's denominator, so the loss and
 * the update are what they would be. If no episode carries a signal, all of them run anyway: the
 * gradient is zero (Adam still steps, as it would), and a loss that is NaN — a broken model — is
 * still caught.
 */
export function updateRows(advantages: readonly number[]): number[] {
  const signal = advantages.flatMap((a, i) => (a !== 0 ? [i] : []));
  return signal.length > 0 ? signal : advantages.map((_, i) => i);
}

/** What one GRPO step's update works on; `step` is named in a non-finite loss's error. */
export interface UpdateRequest {
  model: CharModel;
  optimizer: tf.Optimizer;
  episodes: readonly { text: string; authors: readonly Author[] }[];
  advantages: readonly number[];
  config: UpdateConfig;
  step: number;
  /** Episodes a forward and backward pass takes at once (absent: all of them). */
  rowsPerPart?: number;
  /** Called after each part with its units (model/parts.ts). */
  onPart?: PartDone;
}

/** A length bucket of the update's rows: its tokens, the inputs, and what the loss needs. */
interface Bucket {
  batch: BucketBatch;
  inputs: tf.Tensor2D;
  policy: PolicyBatch;
}

/** Throws NonFiniteLossError (weights untouched) if the loss is NaN or infinite. */
export async function policyUpdate({
  model,
  optimizer,
  episodes,
  advantages,
  config: c,
  step,
  rowsPerPart,
  onPart,
}: UpdateRequest): Promise<UpdateResult> {
  const now = () => performance.now();
  // Targets are characters 1.. of each transcript (character 0, `^`, is never predicted).
  const trainedChars = episodes.reduce((n, e) => n + trainedCount(e.authors, c.lossMask), 0);
  const modelChars = episodes.reduce((n, e) => n + trainedCount(e.authors, 'model'), 0);
  const kept = updateRows(advantages);
  const buckets = updateBuckets(episodes, kept, advantages, c.lossMask, trainedChars, rowsPerPart);
  // One part is every bucket in one pass (a step's usual way, bit for bit as ever); with parts, each bucket is one.
  const parts = rowsPerPart === undefined ? [buckets] : buckets.map((b) => [b]);
  const done = (bs: readonly Bucket[], per: number) =>
    onPart?.(bs.reduce((n, b) => n + b.policy.targets.size, 0) * per);
  const tl = now();
  let loss = NaN;
  const clipped = { low: 0, high: 0 };
  let tg: number;
  /** Per bucket, [N, L-1]: the first update's log-probs, kept off the tape for `before`. */
  const firstLogp: tf.Tensor2D[] = [];
  const before: (Float32Array | null)[] = episodes.map(() => null);
  let beforeMs: number;
  try {
    if (c.updatesPerBatch > 1) {
      // Several updates reuse the batch: freeze the sampling policy's log-probs first, so the
      // ratio measures how far the later updates moved away from it and the clip can bite.
      for (const b of buckets) {
        b.policy.oldLogp = tf.tidy(() => targetLogProbs(model.logits(b.inputs), b.policy.targets, c.temperature));
        await done([b], UNITS.forward);
      }
    }
    tg = now();
    for (let k = 0; k < c.updatesPerBatch; k++) {
      const r = await gradientStep(model, optimizer, { parts, done }, c, step, k === 0 ? firstLogp : null);
      loss = r.loss;
      clipped.low += r.low;
      clipped.high += r.high;
    }
    const tb = now();
    await readBefore(buckets, firstLogp, (k) => kept[k]!, episodes, before);
    beforeMs = now() - tb;
  } finally {
    tf.dispose(firstLogp);
    for (const b of buckets) {
      tf.dispose([b.inputs, b.policy.targets, b.policy.advantages, b.policy.oldLogp ?? [], b.policy.counted ?? []]);
      disposeBatch(b.batch);
    }
  }
  // The mean over the updates of each update's fraction: the same denominator every time.
  const per = Math.max(modelChars, 1) * c.updatesPerBatch;
  const clip = { low: clipped.low / per, high: clipped.high / per, region: (clipped.low + clipped.high) / per };
  return {
    update: { loss, clip, trainedChars },
    before,
    timings: { logprobs: tg - tl, gradient: now() - tg - beforeMs, before: beforeMs },
  };
}

/**
 * The kept rows padded to one length, or to two when that pays (see lengthBuckets); each
 * bucket's loss is a sum over its characters divided by all of them, so the buckets' losses add up.
 */
function updateBuckets(
  episodes: UpdateRequest['episodes'],
  kept: readonly number[],
  advantages: readonly number[],
  mask: UpdateConfig['lossMask'],
  trainedChars: number,
  maxRows: number | undefined,
): Bucket[] {
  const rows = kept.map((i) => episodes[i]!);
  return makeTokenBatches(
    rows.map((e) => e.text),
    (r, j) => (trainedOn(rows[r]!.authors[j + 1], mask) ? 1 : 0),
    maxRows,
  ).map((batch) => {
    const { inputs, targets } = shiftTokens(batch.tokens); // [N, L-1] each
    const policy: PolicyBatch = {
      targets,
      weights: batch.weights,
      advantages: tf.tensor1d(batch.rows.map((k) => advantages[kept[k]!]!)),
      trainedChars,
      // The clip is counted over the model's characters; with masking on those are the trained ones.
      counted:
        mask === 'model'
          ? undefined
          : modelMask(
              batch.rows.map((k) => rows[k]!.authors),
              targets.shape[1],
            ),
    };
    return { batch, inputs, policy };
  });
}

/** [N, width]: 1 where target j + 1 of row i is the model's character. */
const modelMask = (authors: readonly (readonly Author[])[], width: number): tf.Tensor2D =>
  tf.tensor2d(
    authors.flatMap((a) => Array.from({ length: width }, (_, j) => (a[j + 1] === 'model' ? 1 : 0))),
    [authors.length, width],
  );

/**
 * One Adam step on every bucket's loss, summed over the parts' gradients (one part: every bucket
 * in one pass); `keepLogp` receives its log-probs (the first step's are the policy before the
 * update). low, high: model characters where the clip acted (loss.ts). The weights change only
 * after the last part, so a record abandoned between parts leaves them as they were.
 */
async function gradientStep(
  model: CharModel,
  optimizer: tf.Optimizer,
  work: {
    parts: readonly (readonly Bucket[])[];
    done: (bs: readonly Bucket[], per: number) => Promise<void> | undefined;
  },
  c: UpdateConfig,
  step: number,
  keepLogp: tf.Tensor2D[] | null,
): Promise<{ loss: number; low: number; high: number }> {
  let sum: tf.NamedTensorMap | null = null;
  const total = { loss: 0, low: 0, high: 0 };
  try {
    for (const part of work.parts) {
      const { grads, ...r } = await partGradients(model, part, c, keepLogp);
      total.loss += r.loss;
      total.low += r.low;
      total.high += r.high;
      sum = sum === null ? grads : addGrads(sum, grads);
      if (!Number.isFinite(r.loss)) throw new NonFiniteLossError(step, r.loss);
      await work.done(part, UNITS.train);
    }
    optimizer.applyGradients(sum!);
  } finally {
    tf.dispose(sum ?? {});
  }
  return total;
}

/** The gradients of some buckets' loss, its value, and the clip's counts. */
async function partGradients(
  model: CharModel,
  buckets: readonly Bucket[],
  c: UpdateConfig,
  keepLogp: tf.Tensor2D[] | null,
): Promise<{ grads: tf.NamedTensorMap; loss: number; low: number; high: number }> {
  let clip: tf.Tensor1D | undefined;
  const { value, grads } = variableGrads(() => {
    const parts = buckets.map((b) => clippedLoss(model.logits(b.inputs), b.policy, c.clipEps, c.temperature)); // logits: [N, L-1, V]
    clip = tf.keep(
      tf.stack([tf.addN(parts.map((p) => p.clipped.low)), tf.addN(parts.map((p) => p.clipped.high))]) as tf.Tensor1D,
    );
    keepLogp?.push(...parts.map((p) => tf.keep(p.logp)));
    return tf.addN(parts.map((p) => p.loss));
  }, model.trainable);
  try {
    const [lossValue, clipValue] = await Promise.all([value.data(), clip!.data()]);
    return { grads, loss: lossValue[0]!, low: clipValue[0]!, high: clipValue[1]! };
  } catch (e) {
    tf.dispose(grads);
    throw e;
  } finally {
    tf.dispose([value, clip!]);
  }
}

/** Fills before[episode] from each bucket's log-probs [N, L-1] (row r is episode episodeOf(bucket.rows[r])). */
async function readBefore(
  buckets: readonly { batch: { rows: number[] } }[],
  logp: readonly tf.Tensor2D[],
  episodeOf: (k: number) => number,
  episodes: readonly { text: string }[],
  before: (Float32Array | null)[],
): Promise<void> {
  const data = await Promise.all(logp.map((t) => t.data<'float32'>()));
  buckets.forEach((b, n) => {
    const width = logp[n]!.shape[1];
    b.batch.rows.forEach((k, r) => {
      const i = episodeOf(k);
      before[i] = data[n]!.slice(r * width, r * width + episodes[i]!.text.length - 1);
    });
  });
}
