/**
 * What one small kernel costs on the WASM backend, measured the same way wherever it runs (Node,
 * a bare worker in Chromium or Firefox): one Add on [94, 64] through the engine and straight
 * through the kernel's function, a layer norm on [94, 64] (9 kernels), one decoding position of
 * the plate's model for the rollout's 94 rows with its readback, and a matmul big enough that
 * arithmetic, not bookkeeping, sets its time (992×64 by 64×256, pre-training's MLP). No page,
 * no training loop: what is left between engines is the engine.
 */
import * as tf from '@tensorflow/tfjs';
import { MODEL } from '../../src/config';
import { CharModel } from '../../src/model/gpt';
import { LAYER_NORM_EPS } from '../../src/model/ops';
import { nextProbs } from '../../src/rl/rollout';

export interface KernelCosts {
  /** µs per Add [94, 64] via tf.add, and via the backend's kernel function alone. */
  addEngineUs: number;
  addKernelUs: number;
  /** µs per layer norm [94, 64] (9 kernels). */
  layerNormUs: number;
  /** ms per decoding position, 94 rows, with the [94, V] readback. */
  positionMs: number;
  /** GFLOP/s of a 992×64 @ 64×256 matmul. */
  matmulGflops: number;
}

/** Microseconds per call of f, over n calls. */
function perCall(n: number, f: () => void): number {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) f();
  return ((performance.now() - t0) / n) * 1000;
}

/** `reps` rounds of every measurement (the first includes the JIT's warm-up); tensors left: none. */
export function kernelCosts(reps = 4): KernelCosts[] {
  const B = 94;
  const a = tf.randomNormal([B, 64]);
  const b = tf.randomNormal([B, 64]);
  const g = tf.ones([64]);
  const beta = tf.zeros([64]);
  const m1 = tf.randomNormal([992, 64]) as tf.Tensor2D;
  const m2 = tf.randomNormal([64, 256]) as tf.Tensor2D;
  const backend = tf.engine().backend as tf.KernelBackend & { disposeData(id: object): void };
  const add = tf.getKernel('Add', tf.getBackend())!;
  // The layer norm of src/model/ops.ts without its custom gradient: the same 9 kernels.
  const layerNorm = (x: tf.Tensor) => {
    const c = tf.sub(x, tf.mean(x, -1, true));
    const r = tf.rsqrt(tf.add(tf.mean(tf.square(c), -1, true), LAYER_NORM_EPS));
    return tf.add(tf.mul(tf.mul(c, r), g), beta);
  };
  const model = CharModel.create(MODEL, 1);
  const frozen = model.frozen();
  const ones = Array<number>(B).fill(1);
  const prompt = tf.tidy(() => nextProbs(frozen, tf.zeros([B, 7], 'int32') as tf.Tensor2D, 0, undefined, ones));
  prompt.probs.dispose();
  const position = () => {
    const r = tf.tidy(() => nextProbs(frozen, tf.zeros([B, 1], 'int32') as tf.Tensor2D, 7, prompt.cache, ones));
    r.probs.dataSync();
    tf.dispose([r.probs, ...r.cache.k, ...r.cache.v]);
  };
  const out: KernelCosts[] = [];
  try {
    for (let rep = 0; rep < reps; rep++) {
      out.push({
        addEngineUs: perCall(5000, () => tf.add(a, b).dispose()),
        addKernelUs: perCall(5000, () => backend.disposeData((add.kernelFunc({ inputs: { a, b }, backend, attrs: {} }) as tf.TensorInfo).dataId)),
        layerNormUs: perCall(2000, () => tf.tidy(() => layerNorm(a)).dispose()),
        positionMs: perCall(200, position) / 1000,
        matmulGflops: (2 * 992 * 64 * 256) / perCall(300, () => tf.matMul(m1, m2).dispose()) / 1000,
      });
    }
  } finally {
    tf.dispose([a, b, g, beta, m1, m2, ...prompt.cache.k, ...prompt.cache.v]);
    frozen.dispose();
    model.dispose();
  }
  return out;
}
