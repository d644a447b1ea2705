/**
 * The ops the model is built from, each with a hand-written gradient. tfjs's automatic
 * gradients record every kernel on a tape, copy each kernel's saved inputs (on WASM a tape
 * copy is a real copy), and run one to four kernels per recorded kernel backwards; on this
 * model's small tensors that bookkeeping, not the arithmetic, set the time of a training step.
 * A custom gradient runs its forward off the tape, saves only what its backward needs, and
 * computes that backward in as few kernels as the maths allows. Every forward here runs the
 * same kernels in the same order as the plain formula, so the values are the same bit for bit.
 *
 * Two WASM facts shape the backwards: a matmul with transpose flags, or a batched one, takes a
 * plain loop instead of XNNPACK (an explicit transpose first is ~6× faster), and a sum over
 * rows transposes first (a row of ones times the matrix is ~10× faster).
 */
import * as tf from '@tensorflow/tfjs';

type Fn = (...inputs: Array<tf.Tensor | tf.GradSaveFunc>) => {
  value: tf.Tensor;
  gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => tf.Tensor | tf.Tensor[];
};

/** g: [M, N] → [N], the sum over rows, as ones [1, M] @ g. */
export function sumRows(g: tf.Tensor): tf.Tensor {
  const [M, N] = g.shape as [number, number];
  return tf.matMul(tf.ones([1, M]), g).reshape([N]);
}

/** For y = x [M, K] @ w [K, N] and dy [M, N]: dx = dy @ wᵀ [M, K], dw = xᵀ @ dy [K, N] (transposes first: see above). */
function matmulGrads(dy: tf.Tensor, x: tf.Tensor, w: tf.Tensor): [tf.Tensor2D, tf.Tensor2D] {
  return [
    tf.matMul(dy as tf.Tensor2D, tf.transpose(w as tf.Tensor2D)),
    tf.matMul(tf.transpose(x as tf.Tensor2D), dy as tf.Tensor2D),
  ];
}

/** x: [M, K] @ w: [K, N] → [M, N]. */
export const matmul = tf.customGrad(((...inputs) => {
  const [x, w, save] = inputs as [tf.Tensor2D, tf.Tensor2D, tf.GradSaveFunc];
  save([x, w]);
  return { value: tf.matMul(x, w), gradFunc: (dy, [xs, ws]) => matmulGrads(dy, xs!, ws!) };
}) as Fn) as (x: tf.Tensor, w: tf.Tensor) => tf.Tensor;

/**
 * Saves `tensors` for a backward pass, leaving variables out: they outlive the pass unchanged,
 * so the backward reads them directly instead of a copy. Returns how to read them back.
 */
function saveSome(save: tf.GradSaveFunc, tensors: tf.Tensor[]): (saved: tf.Tensor[]) => tf.Tensor[] {
  const kept = tensors.filter((t) => !(t instanceof tf.Variable));
  save(kept);
  return (saved) => {
    let i = 0;
    return tensors.map((t) => (t instanceof tf.Variable ? t : saved[i++]!));
  };
}

/** x: [M, D] → [M, N] with weight [D, N] and bias [N]. */
export const linear = tf.customGrad(((...inputs) => {
  const [x, w, b, save] = inputs as [tf.Tensor2D, tf.Tensor2D, tf.Tensor1D, tf.GradSaveFunc];
  const restore = saveSome(save, [x, w]);
  return {
    value: tf.add(tf.matMul(x, w), b),
    gradFunc: (dy, saved) => {
      const [xs, ws] = restore(saved) as [tf.Tensor2D, tf.Tensor2D];
      return [...matmulGrads(dy, xs, ws), sumRows(dy)];
    },
  };
}) as Fn) as (x: tf.Tensor, w: tf.Tensor, b: tf.Tensor) => tf.Tensor;

/** a + b, same shapes; the gradient passes through without saving either. */
export const residual = tf.customGrad(((...inputs) => {
  const [a, b, save] = inputs as [tf.Tensor, tf.Tensor, tf.GradSaveFunc];
  save([]);
  return { value: tf.add(a, b), gradFunc: (dy) => [dy.reshape(a.shape), dy.reshape(b.shape)] };
}) as Fn) as (a: tf.Tensor, b: tf.Tensor) => tf.Tensor;

const stopGradientGrad: Fn = (...inputs) => {
  const [x, save] = inputs as [tf.Tensor, tf.GradSaveFunc];
  save([]);
  return { value: tf.clone(x), gradFunc: (dy) => [tf.zerosLike(dy)] };
};

/** Identity forward, zero gradient: the "old" log-probs of the clipped objective. */
export const stopGradient = tf.customGrad(stopGradientGrad) as <T extends tf.Tensor>(x: T) => T;

/** tf.dropout's mask of a shape: 0 or 1 / (1 − rate), from the same random stream and kernels, so the same values. */
export function dropoutMask(shape: number[], rate: number, seed: number): tf.Tensor {
  const keep = 1 - rate;
  return tf.div(tf.floor(tf.add(tf.randomUniform(shape, 0, 1, 'float32', seed), keep)), keep);
}

/** tf.dropout's mask applied to x. */
export function dropout(x: tf.Tensor, rate: number, seed: number): tf.Tensor {
  return tf.customGrad(((...inputs) => {
    const [xs, save] = inputs as [tf.Tensor, tf.GradSaveFunc];
    const mask = dropoutMask(xs.shape, rate, seed);
    save([mask]);
    return { value: tf.mul(xs, mask), gradFunc: (dy, [m]) => [tf.mul(dy, m!)] };
  }) as Fn)(x);
}

export const LAYER_NORM_EPS = 1e-5;

/**
 * Layer norm over the last axis: the sums of tf.moments (the mean, then the mean square of
 * x − mean), 9 kernels forward. Backward, with x̂ the normalised x and r = 1/σ:
 * dx = r · (dx̂ − mean(dx̂) − x̂ · mean(dx̂ · x̂)), dx̂ = dy · g.
 */
export const layerNorm = tf.customGrad(((...inputs) => {
  const [x, g, b, save] = inputs as [tf.Tensor2D, tf.Tensor1D, tf.Tensor1D, tf.GradSaveFunc];
  const centred = tf.sub(x, tf.mean(x, -1, true));
  const r = tf.rsqrt(tf.add(tf.mean(tf.square(centred), -1, true), LAYER_NORM_EPS)); // [M, 1]
  const xhat = tf.mul(centred, r); // [M, D]
  const restore = saveSome(save, [xhat, r, g]);
  return {
    value: tf.add(tf.mul(xhat, g), b),
    gradFunc: (dy, saved) => {
      const [xh, rs, gs] = restore(saved) as [tf.Tensor2D, tf.Tensor2D, tf.Tensor1D];
      const dxhat = tf.mul(dy, gs);
      const dx = tf.mul(
        rs,
        tf.sub(tf.sub(dxhat, tf.mean(dxhat, -1, true)), tf.mul(xh, tf.mean(tf.mul(dxhat, xh), -1, true))),
      );
      return [dx, sumRows(tf.mul(dy, xh)), sumRows(dy)];
    },
  };
}) as Fn) as (x: tf.Tensor, g: tf.Tensor, b: tf.Tensor) => tf.Tensor;

export const GELU_C = Math.sqrt(2 / Math.PI);
export const GELU_A = 0.044715;

/**
 * GELU, tanh approximation (as GPT-2): 0.5·x·(1 + tanh(u)) with u = √(2/π)·(x + 0.044715·x³),
 * written as x·σ(2u), the same function, because tanh is ~6× slower than sigmoid on WASM.
 * Returns σ(2u) too, which the gradient reuses.
 */
function geluParts(x: tf.Tensor): { y: tf.Tensor; s: tf.Tensor } {
  const u = tf.mul(GELU_C, tf.add(x, tf.mul(GELU_A, tf.mul(x, tf.mul(x, x)))));
  const s = tf.sigmoid(tf.mul(2, u));
  return { y: tf.mul(x, s), s };
}

/** @internal A test seam: exported for the gradient tests' plain formula. */
export const gelu = (x: tf.Tensor): tf.Tensor => geluParts(x).y;

/** d gelu / dx from x and s = σ(2u): s + x·s·(1 − s)·2c·(1 + 3a·x²). */
function geluSlope(x: tf.Tensor, s: tf.Tensor): tf.Tensor {
  const dz = tf.add(tf.mul(tf.square(x), 6 * GELU_C * GELU_A), 2 * GELU_C); // d(2u)/dx
  return tf.add(s, tf.mul(tf.mul(s, tf.sub(1, s)), tf.mul(x, dz)));
}

/** The MLP of a block: linear → GELU → linear, [M, D] → [M, D]. */
export const mlp = tf.customGrad(((...inputs) => {
  const [x, w1, b1, w2, b2, save] = inputs as [
    tf.Tensor2D,
    tf.Tensor2D,
    tf.Tensor1D,
    tf.Tensor2D,
    tf.Tensor1D,
    tf.GradSaveFunc,
  ];
  const h = tf.add(tf.matMul(x, w1), b1); // [M, 4D]
  const { y: a, s } = geluParts(h);
  const restore = saveSome(save, [x, h, s, a, w1, w2]);
  return {
    value: tf.add(tf.matMul(a as tf.Tensor2D, w2), b2),
    gradFunc: (dy, saved) => {
      const [xs, hs, ss, as, w1s, w2s] = restore(saved) as tf.Tensor2D[];
      const dh = tf.mul(tf.matMul(dy as tf.Tensor2D, tf.transpose(w2s!)), geluSlope(hs!, ss!)) as tf.Tensor2D; // [M, 4D]
      return [...matmulGrads(dh, xs!, w1s!), sumRows(dh), tf.matMul(tf.transpose(as!), dy as tf.Tensor2D), sumRows(dy)];
    },
  };
}) as Fn) as (x: tf.Tensor, w1: tf.Tensor, b1: tf.Tensor, w2: tf.Tensor, b2: tf.Tensor) => tf.Tensor;
