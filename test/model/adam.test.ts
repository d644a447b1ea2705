import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { adam, CpuAdam, WasmAdam } from '../../src/model/adam';
import { setFused } from '../../src/model/fused/module';
import { useWasm } from '../tf';

beforeAll(useWasm);

describe('the JavaScript Adam', () => {
  it('moves the weights bit for bit as tf.train.adam does, over steps of very different gradient sizes', async () => {
    const shapes = [[8, 24], [24], [16, 8]];
    const make = () => shapes.map((s, i) => tf.variable(tf.randomNormal(s, 0, 1, 'float32', i + 1)));
    const [ours, theirs] = [make(), make()];
    const [cpu, reference] = [new CpuAdam(3e-4), tf.train.adam(3e-4)];
    for (let step = 0; step < 5; step++) {
      const grads = shapes.map((s, i) =>
        tf.randomNormal(s, 0, step === 2 ? 1e-6 : 10 ** (step - 2), 'float32', 100 * step + i),
      );
      cpu.applyGradients(Object.fromEntries(ours.map((v, i) => [v.name, grads[i]!])));
      reference.applyGradients(theirs.map((v, i) => ({ name: v.name, tensor: grads[i]! })));
      tf.dispose(grads);
    }
    for (let i = 0; i < shapes.length; i++) expect(await ours[i]!.data()).toEqual(await theirs[i]!.data());
    tf.dispose([...ours, ...theirs]);
    reference.dispose();
  });

  it('leaves no tensors behind', () => {
    const v = tf.variable(tf.ones([3]));
    const opt = new CpuAdam(0.1);
    const g = tf.ones([3]);
    const before = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) opt.applyGradients({ [v.name]: g });
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose([v, g]);
  });
});

describe('the WebAssembly Adam', () => {
  it('moves the weights bit for bit as the JavaScript one does, including variables it meets only later', () => {
    const shapes = [[8, 24], [24], [16, 8], [5]]; // [5]: not a whole number of vectors
    const make = () => shapes.map((s, i) => tf.variable(tf.randomNormal(s, 0, 1, 'float32', i + 1)));
    const [ours, theirs] = [make(), make()];
    const [wasm, cpu] = [new WasmAdam(3e-4), new CpuAdam(3e-4)];
    for (let step = 0; step < 5; step++) {
      const grads = shapes.map((s, i) =>
        tf.randomNormal(s, 0, step === 2 ? 1e-6 : 10 ** (step - 2), 'float32', 100 * step + i),
      );
      const some = step === 0 ? 2 : shapes.length; // the last two variables join at step 1
      wasm.applyGradients(Object.fromEntries(ours.slice(0, some).map((v, i) => [v.name, grads[i]!])));
      cpu.applyGradients(Object.fromEntries(theirs.slice(0, some).map((v, i) => [v.name, grads[i]!])));
      tf.dispose(grads);
    }
    for (let i = 0; i < shapes.length; i++) {
      const [a, b] = [ours[i]!.dataSync() as Float32Array, theirs[i]!.dataSync() as Float32Array];
      expect(new Uint32Array(a.buffer)).toEqual(new Uint32Array(b.buffer));
    }
    tf.dispose([...ours, ...theirs]);
    wasm.dispose();
  });

  it('is the trainers’ Adam on WASM with the fused kernels, and leaves no tensors behind', () => {
    // (tf.Optimizer answers instanceof by duck typing: compare the classes themselves.)
    expect(adam(0.1).constructor).toBe(WasmAdam);
    setFused(false);
    expect(adam(0.1).constructor).toBe(CpuAdam);
    setFused(true);
    const v = tf.variable(tf.ones([3]));
    const opt = new WasmAdam(0.1);
    const g = tf.ones([3]);
    opt.applyGradients({ [v.name]: g });
    const before = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) opt.applyGradients({ [v.name]: g });
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose([v, g]);
    opt.dispose();
  });
});
