/**
 * Adam (Kingma & Ba 2015, arXiv:1412.6980) exactly as tf.train.adam computes it, on backends
 * whose tensors live in CPU memory (wasm, cpu), in plain JavaScript: the same float32
 * operations in the same order, so the same bits, with no kernels. On WASM, tfjs's Adam runs
 * 14 kernels per variable (364 per step for this model), whose bookkeeping costs more than the
 * arithmetic. Float64 arithmetic rounded to float32 after each operation gives float32's
 * correctly rounded result for + − × ÷ √ (53 ≥ 2·24 + 2 bits), which is what the kernels give.
 */
import * as tf from '@tensorflow/tfjs';
import { onCpuMemoryBackend } from './cpu-memory';
import { adamStepFused, HeapMoments } from './fused/adam';
import { fusedModule } from './fused/module';

const f32 = Math.fround;

/**
 * The Adam the trainers use: on WASM with the fused kernels, one WebAssembly kernel for every
 * variable (fused/adam.ts, the same bits); where reading tensors is cheap, the JavaScript one;
 * else tfjs's.
 */
export function adam(learningRate: number): tf.Optimizer {
  if (fusedModule()) return new WasmAdam(learningRate);
  return onCpuMemoryBackend() ? new CpuAdam(learningRate) : tf.train.adam(learningRate);
}

/**
 * Sets the learning rate of an optimiser adam() made, for its next steps (GRPO's warm-up,
 * rl/grpo.ts). tfjs's AdamOptimizer reads its `learningRate` field at every step.
 */
export function setLearningRate(optimizer: tf.Optimizer, lr: number): void {
  // Not instanceof: tf.Optimizer answers it by duck typing, so tfjs's Adam would pass for ours.
  if ('setLearningRate' in optimizer) (optimizer as CpuAdam).setLearningRate(lr);
  else (optimizer as unknown as { learningRate: number }).learningRate = lr;
}

/** @internal A test seam: exported for the tests that check it against tfjs's Adam. */
export class CpuAdam extends tf.Optimizer {
  static get className(): string {
    return 'CpuAdam';
  }

  private readonly moments = new Map<string, { m: Float32Array; v: Float32Array }>();
  // As tfjs holds them: float32 scalars, the powers β^t updated by a float32 multiply.
  protected readonly beta1: number;
  protected readonly beta2: number;
  protected readonly oneMinusBeta1: number;
  protected readonly oneMinusBeta2: number;
  /** Not readonly: a warm-up's schedule sets it before each step (setLearningRate). */
  protected negLr: number;
  protected readonly epsilon: number;
  private accBeta1: number;
  private accBeta2: number;

  constructor(
    public learningRate: number,
    beta1 = 0.9,
    beta2 = 0.999,
    epsilon = tf.backend().epsilon(),
  ) {
    super();
    this.beta1 = f32(beta1);
    this.beta2 = f32(beta2);
    this.oneMinusBeta1 = f32(1 - beta1);
    this.oneMinusBeta2 = f32(1 - beta2);
    this.negLr = f32(-learningRate);
    this.epsilon = f32(epsilon);
    this.accBeta1 = this.beta1;
    this.accBeta2 = this.beta2;
  }

  applyGradients(variableGradients: tf.NamedTensorMap | { name: string; tensor: tf.Tensor }[]): void {
    const named = Array.isArray(variableGradients)
      ? variableGradients
      : Object.entries(variableGradients).map(([name, tensor]) => ({ name, tensor }));
    const present = named.flatMap(({ name, tensor }) => {
      if (tensor == null) return [];
      const variable = tf.engine().registeredVariables[name];
      if (!variable) throw new Error(`CpuAdam: no variable named ${name}`);
      return [{ name, variable, grad: tensor }];
    });
    this.update(present, f32(1 - this.accBeta1), f32(1 - this.accBeta2));
    this.accBeta1 = f32(this.accBeta1 * this.beta1);
    this.accBeta2 = f32(this.accBeta2 * this.beta2);
    this.incrementIterations();
  }

  /** One step for each variable, with the bias corrections c1 = 1 − β1^t and c2 = 1 − β2^t. */
  protected update(named: { name: string; variable: tf.Variable; grad: tf.Tensor }[], c1: number, c2: number): void {
    for (const { name, variable, grad: tensor } of named) {
      const g = tensor.dataSync() as Float32Array;
      const w = Float32Array.from(variable.dataSync() as Float32Array);
      let state = this.moments.get(name);
      if (!state) this.moments.set(name, (state = { m: new Float32Array(g.length), v: new Float32Array(g.length) }));
      const { m, v } = state;
      for (let i = 0; i < g.length; i++) {
        const gi = g[i]!;
        const mi = f32(f32(m[i]! * this.beta1) + f32(gi * this.oneMinusBeta1));
        const vi = f32(f32(v[i]! * this.beta2) + f32(f32(gi * gi) * this.oneMinusBeta2));
        m[i] = mi;
        v[i] = vi;
        const step = f32(f32(mi / c1) / f32(f32(Math.sqrt(f32(vi / c2))) + this.epsilon));
        w[i] = f32(f32(step * this.negLr) + w[i]!);
      }
      const updated = tf.tensor(w, variable.shape, 'float32');
      variable.assign(updated);
      updated.dispose(); // the variable holds the data now
    }
  }

  /** The learning rate of the next steps; the moments and their bias corrections go on as they were. */
  setLearningRate(lr: number): void {
    this.learningRate = lr;
    this.negLr = f32(-lr);
  }

  override dispose(): void {
    this.moments.clear();
  }

  getConfig(): tf.serialization.ConfigDict {
    return { learningRate: this.learningRate };
  }
}

/**
 * CpuAdam's arithmetic in one WebAssembly kernel per step for all variables, its moments in the
 * WASM heap (fused/adam.ts): the same bits, without reading every weight and gradient into
 * JavaScript and back. For the WASM backend with the fused kernels only.
 * @internal A test seam: exported for the tests that check it against CpuAdam and that adam() picks it.
 */
export class WasmAdam extends CpuAdam {
  static override get className(): string {
    return 'WasmAdam';
  }

  private readonly heap = new HeapMoments();

  protected override update(
    named: { name: string; variable: tf.Variable; grad: tf.Tensor }[],
    c1: number,
    c2: number,
  ): void {
    const { beta1, beta2, oneMinusBeta1, oneMinusBeta2, negLr, epsilon } = this;
    adamStepFused(named, this.heap, { beta1, beta2, oneMinusBeta1, oneMinusBeta2, negLr, epsilon, c1, c2 });
  }

  override dispose(): void {
    this.heap.dispose();
    super.dispose();
  }
}
