/**
 * Teacher-forced training on character rows with a per-character weight: pre-training
 * (every character after `^`) and fine-tuning on demonstrations (the model's characters only).
 */
import * as tf from '@tensorflow/tfjs';
import type { CharModel } from './gpt';
import { NonFiniteLossError } from './non-finite';
import { addGrads, variableGrads } from './gradients';
import { shiftTokens, targetLogProbs } from './logprobs';
import { partsOf, UNITS, type PartDone } from './parts';
import { encode, PAD } from './vocab';

export interface TokenBatch {
  /** [N, L] int32 */
  tokens: tf.Tensor2D;
  /** [N, L-1] float32: weight of predicting tokens[:, j+1]. */
  weights: tf.Tensor2D;
}

/** Pads rows to one length with `.` and builds the batch; `weightOf(row, j)` weighs target j+1. */
export function makeTokenBatch(rows: string[], weightOf: (row: number, j: number) => number): TokenBatch {
  const L = Math.max(...rows.map((r) => r.length));
  const ids = new Int32Array(rows.length * L);
  const w = new Float32Array(rows.length * (L - 1));
  rows.forEach((row, i) => {
    ids.set(encode(row.padEnd(L, PAD)), i * L);
    for (let j = 0; j + 1 < row.length; j++) w[i * (L - 1) + j] = weightOf(i, j);
  });
  return {
    tokens: tf.tensor2d(ids, [rows.length, L], 'int32'),
    weights: tf.tensor2d(w, [rows.length, L - 1]),
  };
}

/**
 * Rows to pad to one length together: all of them, or the shorter and the longer apart when that
 * leaves out at least a fifth of the padded positions (fine-tuning's ~21-character demonstrations
 * beside its 32-character worksheet lines: a quarter). Each group costs a forward and backward
 * pass of its own (~500 kernels), and attention's work grows with the square of the length.
 * @internal A test seam: exported for its test.
 */
export function lengthBuckets(lengths: readonly number[]): number[][] {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]!);
  const L = (i: number) => lengths[order[i]!]!;
  const n = order.length;
  let best = { cost: n * L(n - 1), split: n };
  for (let k = 1; k < n; k++) {
    const cost = k * L(k - 1) + (n - k) * L(n - 1);
    if (cost < best.cost) best = { cost, split: k };
  }
  if (best.cost > 0.8 * n * L(n - 1)) return [lengths.map((_, i) => i)];
  const inOrder = (g: number[]) => g.sort((a, b) => a - b);
  return [inOrder(order.slice(0, best.split)), inOrder(order.slice(best.split))];
}

/** A length bucket's batch and the indices in `rows` of its rows, in order. */
export type BucketBatch = TokenBatch & { rows: number[] };

/**
 * makeTokenBatch per length bucket; `weightOf(row, j)` gets the row's index in `rows`. maxRows:
 * each bucket cut further into batches of at most this many rows (model/parts.ts), each padded
 * to its own longest.
 */
export function makeTokenBatches(
  rows: readonly string[],
  weightOf: (row: number, j: number) => number,
  maxRows?: number,
): BucketBatch[] {
  const groups = lengthBuckets(rows.map((r) => r.length)).flatMap((g) =>
    partsOf(g.length, maxRows).map((k) => k.map((i) => g[i]!)),
  );
  return groups.map((group) => ({
    ...makeTokenBatch(
      group.map((i) => rows[i]!),
      (k, j) => weightOf(group[k]!, j),
    ),
    rows: group,
  }));
}

export function disposeBatch(batch: TokenBatch | TokenBatch[]): void {
  for (const b of [batch].flat()) tf.dispose([b.tokens, b.weights]);
}

/**
 * Weighted mean negative log-likelihood over one batch or its length buckets: a scalar. Dropout
 * is on when a seed is given; bucket i draws its masks from seed + 7919·i. part: only these
 * buckets' share of the loss (its mean is still over every bucket's characters).
 * @internal A test seam: exported for the tests of the loss and its fused path.
 */
export function supervisedLoss(
  model: CharModel,
  batch: TokenBatch | TokenBatch[],
  dropoutSeed?: number,
  part?: readonly number[],
): tf.Scalar {
  return tf.tidy(() => {
    const batches = [batch].flat();
    const sums = (part ?? batches.map((_, i) => i)).map((i) => {
      const b = batches[i]!;
      const { inputs, targets } = shiftTokens(b.tokens);
      const logits = model.logits(inputs, {
        dropoutSeed: dropoutSeed === undefined ? undefined : dropoutSeed + 7919 * i,
      }); // [N, L-1, V]
      return tf.sum(tf.mul(targetLogProbs(logits, targets), b.weights)); // Σ weight · log p
    });
    const count = tf.maximum(tf.addN(batches.map((b) => tf.sum(b.weights))), 1);
    return tf.div(tf.neg(tf.addN(sums)), count) as tf.Scalar;
  });
}

export interface SupervisedStepOptions {
  dropoutSeed?: number;
  lr: number;
  weightDecay: number;
  /** Name the step in a NonFiniteLossError: its number and stage ("fine-tuning"). */
  step?: number;
  stage?: string;
  /** Each batch is a part of its own, the gradients summed (model/parts.ts); else one part. */
  eachBatchAPart?: boolean;
  /** Called after each part with its units. */
  onPart?: PartDone;
}

/**
 * One optimiser step; returns the loss before the step. Decoupled weight decay on matrices
 * (AdamW). The weights change only after the last part.
 */
export async function supervisedStep(
  model: CharModel,
  optimizer: tf.Optimizer,
  batch: TokenBatch | TokenBatch[],
  opts: SupervisedStepOptions,
): Promise<number> {
  const batches = [batch].flat();
  const parts = opts.eachBatchAPart ? batches.map((_, i) => [i]) : [undefined];
  let sum: tf.NamedTensorMap | null = null;
  let loss = 0;
  try {
    for (const part of parts) {
      const { value, grads } = variableGrads(
        () => supervisedLoss(model, batch, opts.dropoutSeed, part),
        model.trainable,
      );
      sum = sum === null ? grads : addGrads(sum, grads);
      try {
        loss += (await value.data())[0]!;
      } finally {
        value.dispose();
      }
      if (!Number.isFinite(loss)) throw new NonFiniteLossError(opts.step ?? 0, loss, opts.stage);
      const chars = (part ?? batches.map((_, i) => i)).reduce((n, i) => n + batches[i]!.weights.size, 0);
      await opts.onPart?.(chars * UNITS.train);
    }
    optimizer.applyGradients(sum!);
    if (opts.weightDecay > 0) {
      tf.tidy(() => {
        for (const v of model.trainable) if (v.rank === 2) v.assign(tf.mul(v, 1 - opts.lr * opts.weightDecay));
      });
    }
  } finally {
    tf.dispose(sum ?? {});
  }
  return loss;
}
