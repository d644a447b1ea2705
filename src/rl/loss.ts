/**
 * The clipped policy objective of GRPO / PPO (Schulman et al. 2017, arXiv:1707.06347), over the
 * characters the loss covers (rl/credit.ts): with observation masking, the ones the model wrote
 * and no others — prompt, environment and padding characters carry weight 0. Per character j of
 * episode i:
 *
 *   ratio = exp(logp_new − logp_old)
 *   obj   = min(ratio · A_i, clip(ratio, 1 − ε, 1 + ε) · A_i)
 *   loss  = − Σ w·obj / Σ w            (a mean over all trained characters in the batch)
 *
 * and where the clip acts, as TRL's GRPOTrainer counts it over the model's characters: low where
 * ratio < 1 − ε and A < 0, high where ratio > 1 + ε and A > 0 — exactly the characters whose
 * min takes the clipped side, whose gradient is therefore zero. With one update per sampled batch
 * the old policy is the current one: ratio ≡ 1, and nothing is ever clipped.
 */
import * as tf from '@tensorflow/tfjs';
import { targetLogProbs } from '../model/logprobs';
import { stopGradient } from '../model/ops';

export interface PolicyBatch {
  /** [N, L-1] int32: the next character at every position. */
  targets: tf.Tensor2D;
  /** [N, L-1] float32: 1 where the loss covers the target (the model wrote it, with masking on), else 0. */
  weights: tf.Tensor2D;
  /** [N] float32: the episode's group-relative advantage. */
  advantages: tf.Tensor1D;
  /** [N, L-1] float32: log-probs under the sampling policy; absent = the current policy (ratio 1). */
  oldLogp?: tf.Tensor2D;
  /**
   * The number of trained characters the mean is taken over; default Σ weights. Episodes whose
   * advantage is 0 add nothing to the sum, so they may be left out of the batch and counted here.
   */
  trainedChars?: number;
  /** [N, L-1]: 1 at the model's own characters, where the clip is counted; default `weights`. */
  counted?: tf.Tensor2D;
}

/** Characters (of `counted`) where the clip acted: TRL's low and high sides. */
interface ClipCounts {
  /** ratio < 1 − ε where the advantage is negative. */
  low: tf.Scalar;
  /** ratio > 1 + ε where the advantage is positive. */
  high: tf.Scalar;
}

export interface ClippedLoss {
  loss: tf.Scalar;
  /** Counts, not fractions: the caller knows the batch's characters (rl/update.ts). */
  clipped: ClipCounts;
  /** [N, L-1]: the log-probability of every target under the policy being trained (on the tape). */
  logp: tf.Tensor2D;
}

/** logits: [N, L-1, V] from the policy being trained. */
export function clippedLoss(
  logits: tf.Tensor3D,
  batch: PolicyBatch,
  clipEps: number,
  temperature: number,
): ClippedLoss {
  return tf.tidy(() => {
    const logp = targetLogProbs(logits, batch.targets, temperature); // [N, L-1]
    // With no stored old log-probs the old policy is the current one, detached: ratio ≡ 1.
    const old = batch.oldLogp ?? stopGradient(logp);
    const ratio = tf.exp(tf.sub(logp, old)); // [N, L-1]
    const adv = batch.advantages.reshape([-1, 1]); // [N, 1]
    const unclipped = tf.mul(ratio, adv);
    const clipped = tf.mul(tf.clipByValue(ratio, 1 - clipEps, 1 + clipEps), adv);
    const objective = tf.minimum(unclipped, clipped); // [N, L-1]
    const count =
      batch.trainedChars === undefined
        ? tf.maximum(tf.sum(batch.weights), 1)
        : tf.scalar(Math.max(batch.trainedChars, 1));
    const loss = tf.div(tf.neg(tf.sum(tf.mul(objective, batch.weights))), count) as tf.Scalar;
    const counted = batch.counted ?? batch.weights;
    const where = (ratioSide: tf.Tensor, advantageSide: tf.Tensor) =>
      tf.sum(tf.mul(tf.cast(tf.logicalAnd(ratioSide, advantageSide), 'float32'), counted)) as tf.Scalar;
    const low = where(tf.less(ratio, 1 - clipEps), tf.less(adv, 0));
    const high = where(tf.greater(ratio, 1 + clipEps), tf.greater(adv, 0));
    return { loss, clipped: { low, high }, logp };
  });
}
