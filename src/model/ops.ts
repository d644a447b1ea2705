/**
 * Small ops the model is built from. `matmul` carries its own gradient: tfjs's built-in
 * matMul gradient uses transpose flags, which on the WASM backend ran ~6× slower than an
 * explicit transpose followed by a plain matMul (measured in our probe; a linear-layer step
 * went from ~630 to ~190 ms).
 */
import * as tf from '@tensorflow/tfjs';

const swapLast = (t: tf.Tensor): tf.Tensor => (t.rank === 2 ? tf.transpose(t) : tf.transpose(t, [0, 2, 1]));

type Fn = (...inputs: Array<tf.Tensor | tf.GradSaveFunc>) => {
  value: tf.Tensor;
  gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => tf.Tensor | tf.Tensor[];
};

const matmulGrad: Fn = (...inputs) => {
  const [x, w, save] = inputs as [tf.Tensor3D, tf.Tensor3D, tf.GradSaveFunc];
  save([x, w]);
  return {
    value: tf.matMul(x, w),
    gradFunc: (dy, saved) => {
      const [xs, ws] = saved as [tf.Tensor3D, tf.Tensor3D];
      return [tf.matMul(dy as tf.Tensor3D, swapLast(ws) as tf.Tensor3D), tf.matMul(swapLast(xs) as tf.Tensor3D, dy as tf.Tensor3D)];
    },
  };
};

/** x: [M, K] @ w: [K, N] → [M, N], or batched x: [G, M, K] @ w: [G, K, N] → [G, M, N]. */
export const matmul = tf.customGrad(matmulGrad) as (x: tf.Tensor, w: tf.Tensor) => tf.Tensor;

const stopGradientGrad: Fn = (...inputs) => {
  const [x, save] = inputs as [tf.Tensor, tf.GradSaveFunc];
  save([]);
  return { value: tf.clone(x), gradFunc: (dy) => [tf.zerosLike(dy)] };
};

/** Identity forward, zero gradient: the "old" log-probs of the clipped objective. */
export const stopGradient = tf.customGrad(stopGradientGrad) as <T extends tf.Tensor>(x: T) => T;

/** x: [M, D] → [M, N] with weight [D, N] and bias [N]. */
export function linear(x: tf.Tensor, w: tf.Tensor, b: tf.Tensor): tf.Tensor {
  return tf.add(matmul(x, w), b); // [M, N]
}

/**
 * Over the last axis, the same sums as `tf.moments` (the mean, then the mean square of
 * x − mean) without its cast and reshape, and x − mean computed once: 9 kernels, not 12.
 */
export function layerNorm(x: tf.Tensor, g: tf.Tensor, b: tf.Tensor, eps = 1e-5): tf.Tensor {
  const centred = tf.sub(x, tf.mean(x, -1, true));
  const variance = tf.mean(tf.square(centred), -1, true);
  return tf.add(tf.mul(tf.mul(centred, tf.rsqrt(tf.add(variance, eps))), g), b);
}

/**
 * GELU, tanh approximation (as GPT-2): 0.5·x·(1 + tanh(u)) with u = √(2/π)·(x + 0.044715·x³),
 * written as x·σ(2u), the same function, because tanh is ~6× slower than sigmoid on WASM.
 */
export function gelu(x: tf.Tensor): tf.Tensor {
  const u = tf.mul(Math.sqrt(2 / Math.PI), tf.add(x, tf.mul(0.044715, tf.mul(x, tf.mul(x, x)))));
  return tf.mul(x, tf.sigmoid(tf.mul(2, u)));
}
