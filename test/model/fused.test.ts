import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-cpu';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MODEL } from '../../src/config';
import { DECODE_KERNEL } from '../../src/model/fused/decode';
import { fusedModule, setFused } from '../../src/model/fused/module';
import { cacheTensors, CharModel, type KvCache } from '../../src/model/gpt';
import { encode } from '../../src/model/vocab';
import { loadCheckpoint, SHIPPED } from '../../src/node/checkpoint-fs';
import { TINY, useWasm } from '../tf';

beforeAll(useWasm);
afterEach(() => setFused(true));

/** How many float32 values differ in their bits (−0 and +0, or two NaNs, count as different). */
function bitsDiffering(a: tf.TypedArray, b: tf.TypedArray): number {
  const [x, y] = [new Uint32Array(a.buffer, a.byteOffset, a.length), new Uint32Array(b.buffer, b.byteOffset, b.length)];
  expect(x.length).toBe(y.length);
  let n = 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) n++;
  return n;
}

const TEXTS = ['^23+45=B23+45|68|68|', '^10+99=B10+99|109|10', '^1+2=B1+2|3|3|......', '^7+80=B7+80|87|87|..'];

/** Logits of TEXTS decoded the way rollouts decode: the 7-character prompt, then one position or a few at a time. */
function decoded(model: CharModel, fused: boolean): Float32Array {
  setFused(fused);
  const ids = tf.tensor2d(
    TEXTS.map((t) => encode(t)),
    undefined,
    'int32',
  );
  const out = tf.tidy(() => {
    let { logits, cache } = model.forward(ids.slice([0, 0], [TEXTS.length, 7]));
    const parts = [logits];
    for (let t = 7; t < 20;) {
      const T = t < 12 ? 1 : Math.min(3, 20 - t);
      const past: KvCache = cache;
      ({ logits, cache } = model.forward(ids.slice([0, t], [TEXTS.length, T]), { start: t, cache: past }));
      tf.dispose(cacheTensors(past)); // as rollouts do: the old cache goes once the new one is made
      parts.push(logits);
      t += T;
    }
    return tf.concat(parts, 1);
  });
  const data = out.dataSync() as Float32Array;
  tf.dispose([ids, out]);
  return data;
}

describe('decoding with the fused kernel', () => {
  it('gives the unfused logits bit for bit, position by position from the cache (the shipped agent)', () => {
    const { model } = loadCheckpoint(SHIPPED.agent);
    expect(bitsDiffering(decoded(model, true), decoded(model, false))).toBe(0);
    model.dispose();
  });

  it('gives the unfused logits bit for bit for a model of another size (random weights)', () => {
    for (const config of [TINY, { ...MODEL, layers: 3, heads: 2 }]) {
      const model = CharModel.create(config, 3);
      expect(bitsDiffering(decoded(model, true), decoded(model, false))).toBe(0);
      model.dispose();
    }
  });

  it('runs one kernel per model call', async () => {
    const model = CharModel.create(MODEL, 1);
    const ids = tf.tensor2d([encode('^23+45=')], undefined, 'int32');
    const info = await tf.profile(() => {
      const { logits, cache } = model.forward(ids);
      tf.dispose([logits, ...cacheTensors(cache)]);
    });
    expect(info.kernels.map((k) => k.name)).toEqual([DECODE_KERNEL]);
    tf.dispose(ids);
    model.dispose();
  });

  it('gives a second continuation of the same cache (a branch) its own copy, so both decode as the unfused path does', () => {
    const model = CharModel.create(MODEL, 2);
    const run = (fused: boolean) => {
      setFused(fused);
      return tf.tidy(() => {
        const prompt = model.forward(tf.tensor2d([encode('^23+45=')], undefined, 'int32'));
        const a = model.forward(tf.tensor2d([[encode('B')[0]!]], undefined, 'int32'), {
          start: 7,
          cache: prompt.cache,
        });
        const b = model.forward(tf.tensor2d([[encode('6')[0]!]], undefined, 'int32'), {
          start: 7,
          cache: prompt.cache,
        });
        const a2 = model.forward(tf.tensor2d([[encode('2')[0]!]], undefined, 'int32'), { start: 8, cache: a.cache });
        return tf.concat([a.logits, b.logits, a2.logits], 1).dataSync() as Float32Array;
      });
    };
    expect(bitsDiffering(run(true), run(false))).toBe(0);
    model.dispose();
  });

  it('leaves no tensors behind', () => {
    const model = CharModel.create(MODEL, 1);
    decoded(model, true);
    const before = tf.memory().numTensors;
    decoded(model, true);
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
  });

  it('is not used with the switch off or on another backend, and a fused cache then says why it cannot be read', async () => {
    const model = CharModel.create(TINY, 1);
    const ids = tf.tensor2d([encode('^1+2=')], undefined, 'int32');
    const { logits, cache } = model.forward(ids);
    expect(cache.kind).toBe('fused');
    setFused(false);
    expect(fusedModule()).toBeNull();
    expect(() => model.forward(ids.slice([0, 0], [1, 1]), { start: 5, cache })).toThrow(
      /fused cache, but the fused kernels are off/,
    );
    setFused(true);
    tf.dispose([ids, logits, ...cacheTensors(cache)]);
    await tf.setBackend('cpu');
    try {
      expect(fusedModule()).toBeNull();
      const out = tf.tidy(() => model.forward(tf.tensor2d([encode('^1+2=')], undefined, 'int32')).cache.kind);
      expect(out).toBe('layers');
    } finally {
      await useWasm();
      model.dispose();
    }
  });
});
