import * as tf from '@tensorflow/tfjs';

/**
 * Per-position log-probabilities of the given targets.
 * logits: [B, T, V], targets: [B, T] int32 → [B, T].
 */
export function targetLogProbs(logits: tf.Tensor3D, targets: tf.Tensor2D, temperature = 1): tf.Tensor2D {
  return tf.tidy(() => {
    const V = logits.shape[2];
    const logp = tf.logSoftmax(temperature === 1 ? logits : tf.div(logits, temperature)); // [B, T, V]
    return tf.sum(tf.mul(logp, tf.oneHot(targets, V)), -1) as tf.Tensor2D; // [B, T]
  });
}

/** Shift a [N, L] token batch into inputs [N, L-1] and next-character targets [N, L-1]. */
export function shiftTokens(tokens: tf.Tensor2D): { inputs: tf.Tensor2D; targets: tf.Tensor2D } {
  const [N, L] = tokens.shape;
  return {
    inputs: tf.slice(tokens, [0, 0], [N, L - 1]),
    targets: tf.slice(tokens, [0, 1], [N, L - 1]),
  };
}
