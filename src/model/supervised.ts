/**
 * Teacher-forced training on character rows with a per-character weight: pre-training
 * (every character after `^`) and fine-tuning on demonstrations (the model's characters only).
 */
import * as tf from '@tensorflow/tfjs';
import type { CharModel } from './gpt';
import { variableGrads } from './gradients';
import { shiftTokens, targetLogProbs } from './logprobs';
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

export function disposeBatch(batch: TokenBatch): void {
  batch.tokens.dispose();
  batch.weights.dispose();
}

/** Weighted mean negative log-likelihood: a scalar. Dropout is on when a seed is given. */
export function supervisedLoss(model: CharModel, batch: TokenBatch, dropoutSeed?: number): tf.Scalar {
  return tf.tidy(() => {
    const { inputs, targets } = shiftTokens(batch.tokens);
    const logits = model.logits(inputs, { dropoutSeed }); // [N, L-1, V]
    const logp = targetLogProbs(logits, targets); // [N, L-1]
    return tf.div(tf.neg(tf.sum(tf.mul(logp, batch.weights))), tf.maximum(tf.sum(batch.weights), 1)) as tf.Scalar;
  });
}

export interface SupervisedStepOptions {
  dropoutSeed?: number;
  lr: number;
  weightDecay: number;
}

/** One optimiser step; returns the loss before the step. Decoupled weight decay on matrices (AdamW). */
export async function supervisedStep(model: CharModel, optimizer: tf.Optimizer, batch: TokenBatch, opts: SupervisedStepOptions): Promise<number> {
  const { value, grads } = variableGrads(() => supervisedLoss(model, batch, opts.dropoutSeed), model.trainable);
  optimizer.applyGradients(grads);
  if (opts.weightDecay > 0) {
    tf.tidy(() => {
      for (const v of model.trainable) if (v.rank === 2) v.assign(tf.mul(v, 1 - opts.lr * opts.weightDecay));
    });
  }
  tf.dispose(grads);
  const loss = (await value.data())[0]!;
  value.dispose();
  return loss;
}
