// Adam's learning rate changed between steps (GRPO's warm-up and hold, scripts/first-dip.ts), and
// the fact the first dip rests on: Adam's first step moves every weight by about the full rate.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CpuAdam, setLearningRate, WasmAdam } from '../../src/model/adam';
import { useWasm } from '../tf';

beforeAll(useWasm);

const SHAPES = [[8, 24], [24], [16, 8]];
const make = () => SHAPES.map((s, i) => tf.variable(tf.randomNormal(s, 0, 1, 'float32', i + 1)));
/** Step k's gradients: sizes from 1e-2 to 1e2 across the steps (a seed of 0 would draw at random). */
const gradients = (k: number) => SHAPES.map((s, i) => tf.randomNormal(s, 0, 10 ** (k - 2), 'float32', 100 * k + i + 1));
const bits = (v: tf.Variable) => new Uint32Array((v.dataSync() as Float32Array).slice().buffer);

/** Five steps at rates 0, 1e-4, 2e-4, 3e-4, 3e-4 (a hold, then a warm-up), set between steps. */
function train(optimizer: tf.Optimizer, weights: tf.Variable[]): void {
  [0, 1e-4, 2e-4, 3e-4, 3e-4].forEach((lr, k) => {
    setLearningRate(optimizer, lr);
    const grads = gradients(k);
    optimizer.applyGradients(weights.map((v, i) => ({ name: v.name, tensor: grads[i]! })));
    tf.dispose(grads);
  });
}

describe('a learning rate set between steps', () => {
  it('moves the weights bit for bit alike on the JavaScript, the WebAssembly and tfjs’s Adam', () => {
    const runs = [new CpuAdam(3e-4), new WasmAdam(3e-4), tf.train.adam(3e-4)].map((opt) => {
      const w = make();
      train(opt, w);
      opt.dispose();
      return w;
    });
    for (let i = 0; i < SHAPES.length; i++) {
      expect(bits(runs[1]![i]!)).toEqual(bits(runs[0]![i]!));
      expect(bits(runs[2]![i]!)).toEqual(bits(runs[0]![i]!));
    }
    tf.dispose(runs.flat());
  });

  it('at 0 leaves the weights exactly where they were, while the moments fill', () => {
    const w = make();
    const before = w.map(bits);
    const opt = new WasmAdam(3e-4);
    setLearningRate(opt, 0);
    const grads = gradients(3);
    opt.applyGradients(w.map((v, i) => ({ name: v.name, tensor: grads[i]! })));
    w.forEach((v, i) => expect(bits(v)).toEqual(before[i]));
    tf.dispose([...w, ...grads]);
    opt.dispose();
  });
});

describe('Adam’s first step', () => {
  it('moves every weight by about the full learning rate, whether its gradient is 1e-3 or 1e3', () => {
    for (const size of [1e-3, 1, 1e3]) {
      const v = tf.variable(tf.zeros([1000]));
      const opt = new WasmAdam(3e-4);
      const g = tf.randomNormal([1000], 0, size, 'float32', 7);
      opt.applyGradients({ [v.name]: g });
      const moved = Array.from(v.dataSync(), Math.abs);
      // |Δw| = lr · |g| / (|g| + ε): at most lr, and within 10% of it but where |g| < 1e-6 (ε = 1e-7).
      expect(Math.max(...moved)).toBeLessThanOrEqual(3e-4 * (1 + 1e-6));
      expect(moved.filter((d) => d > 0.9 * 3e-4).length).toBeGreaterThanOrEqual(990);
      tf.dispose([v, g]);
      opt.dispose();
    }
  });
});
