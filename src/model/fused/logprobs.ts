/**
 * model/logprobs.ts's targetLogProbs in one kernel, its gradient in another: logits [B, T, V] and
 * targets [B, T] → the log-probability of each target [B, T], at a temperature. The same sums in
 * the same order as tfjs's logSoftmax, oneHot, mul and sum, with tfjs's own exp and log, so the
 * same bits (test/model/fused-train.test.ts).
 */
import * as tf from '@tensorflow/tfjs';
import { handOver, moduleOf, recording, type KernelArgs } from './module';

const TARGETS_FORWARD_KERNEL = 'MultiTurnRLTargetLogProbs';
const TARGETS_BACKWARD_KERNEL = 'MultiTurnRLTargetLogProbsGrad';

export function targetLogProbsFused(logits: tf.Tensor3D, targets: tf.Tensor2D, temperature: number): tf.Tensor2D {
  register();
  const t = temperature === 1 ? 1 : temperature;
  if (!recording())
    return tf.engine().runKernel(TARGETS_FORWARD_KERNEL, { logits, targets }, { t, keep: false }) as tf.Tensor2D;
  let values: tf.Tensor | undefined;
  const f = tf.customGrad((...args: Array<tf.Tensor | tf.GradSaveFunc>) => {
    const [x, save] = args as [tf.Tensor, tf.GradSaveFunc];
    const [logp, kept] = tf
      .engine()
      .runKernel(TARGETS_FORWARD_KERNEL, { logits: x, targets }, { t, keep: true }) as tf.Tensor[];
    values = tf.keep(kept!); // logSoftmax's values [B, T, V], handed over below
    save([targets]); // the caller's tidy may dispose the targets before the backward runs
    return {
      value: logp!,
      gradFunc: (dy: tf.Tensor, [ids, v]: tf.Tensor[]) =>
        tf.engine().runKernel(TARGETS_BACKWARD_KERNEL, { dy, values: v!, targets: ids! }, { t }) as tf.Tensor,
    };
  });
  const logp = f(logits) as tf.Tensor2D;
  handOver(logp, values!);
  return logp;
}

function register(): void {
  if (tf.getKernel(TARGETS_FORWARD_KERNEL, 'wasm')) return;
  tf.registerKernel({
    kernelName: TARGETS_FORWARD_KERNEL,
    backendName: 'wasm',
    kernelFunc: forwardKernel as unknown as tf.KernelFunc,
  });
  tf.registerKernel({
    kernelName: TARGETS_BACKWARD_KERNEL,
    backendName: 'wasm',
    kernelFunc: backwardKernel as unknown as tf.KernelFunc,
  });
}

function forwardKernel({
  inputs,
  backend,
  attrs,
}: KernelArgs<{ t: number; keep: boolean }>): tf.TensorInfo | tf.TensorInfo[] {
  const m = moduleOf(backend)!;
  const { logits, targets } = inputs as { logits: tf.TensorInfo; targets: tf.TensorInfo };
  const [B, T, V] = logits.shape as [number, number, number];
  const rows = B * T;
  const logp = backend.makeOutput([B, T], 'float32');
  const values = backend.makeOutput([B, T, V], 'float32');
  const at = m.scratch({ scaled: attrs.t === 1 ? 0 : rows * V, e: rows * V, sums: rows, logs: rows });
  let x = m.offset(logits);
  if (attrs.t !== 1) {
    m.k.divide(x, at.scaled!, rows * V, attrs.t);
    x = at.scaled!;
  }
  const v = m.offset(values);
  m.k.shiftByMax(x, v, rows, V);
  m.unary('exp', v, at.e!, rows * V);
  m.k.rowSums(at.e!, at.sums!, rows, V);
  m.unary('log', at.sums!, at.logs!, rows);
  m.k.pickTargets(v, at.logs!, m.offset(targets), m.offset(logp), rows, V);
  if (attrs.keep) return [logp, values];
  backend.disposeData(values.dataId);
  return logp;
}

function backwardKernel({ inputs, backend, attrs }: KernelArgs<{ t: number }>): tf.TensorInfo {
  const m = moduleOf(backend)!;
  const { dy, values, targets } = inputs as { dy: tf.TensorInfo; values: tf.TensorInfo; targets: tf.TensorInfo };
  const [B, T, V] = values.shape as [number, number, number];
  const rows = B * T;
  const out = backend.makeOutput([B, T, V], 'float32');
  const at = m.scratch({ softmax: rows * V });
  m.unary('exp', m.offset(values), at.softmax!, rows * V);
  m.k.targetsBackward(m.offset(dy), at.softmax!, m.offset(targets), m.offset(out), rows, V, attrs.t);
  return out;
}
