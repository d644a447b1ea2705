import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { groupMatMulBatched, groupMatMulByConv } from '../../src/model/attention';
import { useWasm } from '../tf';

beforeAll(useWasm);

describe('per-group matmuls', () => {
  it('give each group its own a·b, as a depthwise convolution and as a batched matmul, the same values', async () => {
    const [M, K, C, N] = [5, 4, 6, 3];
    const a = tf.randomNormal([M, K, C], 0, 1, 'float32', 1); // group innermost
    const b = tf.randomNormal([K, C, N], 0, 1, 'float32', 2);
    const [av, bv] = [(await a.array()) as number[][][], (await b.array()) as number[][][]];
    const expected = Array.from({ length: M }, (_, m) =>
      Array.from({ length: C }, (_, c) =>
        Array.from({ length: N }, (_, n) => av[m]!.reduce((s, row, k) => s + row[c]! * bv[k]![c]![n]!, 0)),
      ),
    );
    for (const f of [groupMatMulByConv, groupMatMulBatched]) {
      const y = f(a, b);
      expect(y.shape).toEqual([M, C, N]);
      const got = (await y.array()) as number[][][];
      got.forEach((row, m) =>
        row.forEach((col, c) => col.forEach((v, n) => expect(v).toBeCloseTo(expected[m]![c]![n]!, 5))),
      );
      y.dispose();
    }
    const [conv, batched] = [groupMatMulByConv(a, b), groupMatMulBatched(a, b)];
    expect(await conv.data()).toEqual(await batched.data()); // both sum over k in order
    tf.dispose([a, b, conv, batched]);
  });
});
