/**
 * Adam's step for every variable in one kernel (assembly/backward.ts's adamStep), for model/adam.ts's
 * WasmAdam: the moments live in one block of the WASM heap the optimiser owns, updated in place;
 * each variable gets its new weights as a new tensor (never written in place: tfjs's WASM matmul
 * keeps packed copies of a weight tensor by its id).
 */
import * as tf from '@tensorflow/tfjs';
import { fusedModule, moduleOf, type FusedModule, type WasmBackend } from './module';

const ADAM_KERNEL = 'MultiTurnRLAdam';

/** Adam's float32 constants, as CpuAdam holds them; c1 = 1 − β1^t, c2 = 1 − β2^t for this step. */
export interface AdamConstants {
  beta1: number;
  beta2: number;
  oneMinusBeta1: number;
  oneMinusBeta2: number;
  negLr: number;
  epsilon: number;
  c1: number;
  c2: number;
}

/** The optimiser's moments in the heap: per variable name, m then v, n floats each. */
export class HeapMoments {
  private readonly offsets = new Map<string, number>();
  private block = 0;
  private bytes = 0;
  private readonly module: FusedModule;

  constructor() {
    const m = fusedModule();
    if (!m) throw new Error('HeapMoments: the fused kernels cannot run on this backend');
    this.module = m;
  }

  /** Byte offsets of each variable's m (v follows it), allocating zeros for new ones. */
  slots(variables: readonly tf.Variable[]): number[] {
    const fresh = variables.filter((v) => !this.offsets.has(v.name));
    if (fresh.length > 0) this.grow(fresh);
    return variables.map((v) => this.offsets.get(v.name)!);
  }

  private grow(fresh: readonly tf.Variable[]): void {
    const w = this.module.backend.wasm;
    const bytes = this.bytes + fresh.reduce((n, v) => n + 8 * v.size, 0);
    const block = w._malloc(bytes) >>> 0;
    if (!block) throw new Error(`HeapMoments: could not allocate ${bytes} bytes`);
    w.HEAPU8.fill(0, block + this.bytes, block + bytes);
    if (this.block) {
      w.HEAPU8.copyWithin(block, this.block, this.block + this.bytes);
      w._free(this.block);
      for (const [name, at] of this.offsets) this.offsets.set(name, at - this.block + block);
    }
    let at = block + this.bytes;
    for (const v of fresh) {
      this.offsets.set(v.name, at);
      at += 8 * v.size;
    }
    this.block = block;
    this.bytes = bytes;
  }

  dispose(): void {
    if (this.block) this.module.backend.wasm._free(this.block);
    this.block = 0;
    this.bytes = 0;
    this.offsets.clear();
  }
}

/** One Adam step: each variable's new weights from its gradient, the moments updated in place. */
export function adamStepFused(
  named: readonly { variable: tf.Variable; grad: tf.Tensor }[],
  moments: HeapMoments,
  k: AdamConstants,
): void {
  if (named.length === 0) return;
  register();
  const inputs: tf.NamedTensorMap = {};
  named.forEach(({ variable, grad }, i) => {
    if (grad.size !== variable.size)
      throw new Error(`Adam: a gradient of ${grad.size} values for ${variable.name}, of ${variable.size}`);
    inputs[`w${i}`] = variable;
    inputs[`g${i}`] = grad;
  });
  const attrs = { ...k, slots: moments.slots(named.map((n) => n.variable)) };
  const out = tf.engine().runKernel(ADAM_KERNEL, inputs, attrs as unknown as tf.NamedAttrMap);
  const updated = Array.isArray(out) ? out : [out];
  named.forEach(({ variable }, i) => variable.assign(updated[i]!));
  tf.dispose(updated); // the variables hold the data now
}

function register(): void {
  if (tf.getKernel(ADAM_KERNEL, 'wasm')) return;
  tf.registerKernel({
    kernelName: ADAM_KERNEL,
    backendName: 'wasm',
    kernelFunc: adamKernel as unknown as tf.KernelFunc,
  });
}

function adamKernel({
  inputs,
  backend,
  attrs,
}: {
  inputs: Record<string, tf.TensorInfo>;
  backend: WasmBackend;
  attrs: AdamConstants & { slots: number[] };
}): tf.TensorInfo[] {
  const m = moduleOf(backend)!;
  return attrs.slots.map((slot, i) => {
    const w = inputs[`w${i}`]!;
    const n = w.shape.reduce((a, b) => a * b, 1);
    const out = backend.makeOutput(w.shape, 'float32');
    m.k.adamStep(
      m.offset(w),
      m.offset(inputs[`g${i}`]!),
      slot,
      slot + 4 * n,
      m.offset(out),
      n,
      attrs.beta1,
      attrs.beta2,
      attrs.oneMinusBeta1,
      attrs.oneMinusBeta2,
      attrs.negLr,
      attrs.epsilon,
      attrs.c1,
      attrs.c2,
    );
    return out;
  });
}
