/**
 * Causal multi-head self-attention, twice: `attend` for decoding (plain ops, grows a key/value
 * cache) and `attentionBlock` for training (no cache, a hand-written gradient; see ops.ts for
 * why). Both compute the same sums in the same order, so they give the same values bit for bit.
 *
 * Activations are time-major, [T·B, D] = [T, B, H, hd]: the C = B·H heads of a position sit
 * together, so queries, keys and values are [T, C, hd] by a reshape, and a cache grows along
 * its first axis, which is one copy. The per-head matmuls are `groupMatMul`s (see there).
 */
import * as tf from '@tensorflow/tfjs';
import { onCpuMemoryBackend } from './cpu-memory';
import { sumRows } from './ops';

export interface Heads {
  /** Batch rows (the sequences). */
  B: number;
  H: number;
  /** Head size. */
  hd: number;
}

/**
 * For each of C groups, the matmul a_c [M, K] @ b_c [K, N], with the group innermost:
 * a [M, K, C], b [K, C, N] → [M, C, N]. On WASM a batched matmul takes a plain scalar loop
 * (XNNPACK serves only unbatched ones); this is a depthwise convolution instead (a channel per
 * group, a filter as wide as the input, N filters per channel), which XNNPACK runs ~5× faster
 * at attention's sizes, summing over K in the same order, so with the same result. Elsewhere
 * it is a batched matmul between transposes.
 */
function groupMatMul(a: tf.Tensor, b: tf.Tensor): tf.Tensor3D {
  return onCpuMemoryBackend() ? groupMatMulByConv(a, b) : groupMatMulBatched(a, b);
}

/** @internal A test seam: exported for the test that the two ways agree. */
export function groupMatMulByConv(a: tf.Tensor, b: tf.Tensor): tf.Tensor3D {
  const [M, K, C] = a.shape as [number, number, number];
  const N = b.shape[2]!;
  return tf
    .depthwiseConv2d(a.reshape([1, M, K, C]) as tf.Tensor4D, b.reshape([1, K, C, N]) as tf.Tensor4D, 1, 'valid')
    .reshape([M, C, N]);
}

/** @internal A test seam: exported for the test that the two ways agree. */
export function groupMatMulBatched(a: tf.Tensor, b: tf.Tensor): tf.Tensor3D {
  const y = tf.matMul(a.transpose([2, 0, 1]) as tf.Tensor3D, b.transpose([1, 0, 2]) as tf.Tensor3D); // [C, M, N]
  return y.transpose([1, 0, 2]);
}

const masks = new Map<string, Float32Array>();

/**
 * The additive causal mask [T, 1, S] for T queries at positions S − T .. S − 1 over S keys:
 * query i may see keys 0 .. S − T + i. Values are -0 where allowed and -1e9 elsewhere, exactly
 * what (1 − allowed) · −1e9 gives. Built once per shape in plain memory, so no tensor outlives a call.
 */
function causalMask(T: number, S: number): tf.Tensor3D {
  const key = `${T}x${S}`;
  let m = masks.get(key);
  if (!m) {
    m = new Float32Array(T * S).fill(-0);
    for (let i = 0; i < T; i++) for (let j = S - T + i + 1; j < S; j++) m[i * S + j] = -1e9;
    masks.set(key, m);
  }
  return tf.tensor3d(m, [T, 1, S]);
}

/** Scores [T, C, S] → attention weights: scaled by 1/√hd, masked when T > 1, softmax over keys. */
function weights(scores: tf.Tensor, hd: number): tf.Tensor3D {
  const [T, , S] = scores.shape as [number, number, number];
  let att = tf.mul(scores, 1 / Math.sqrt(hd));
  if (T > 1) att = tf.add(att, causalMask(T, S));
  return tf.softmax(att) as tf.Tensor3D;
}

/** Per projection (query, key, value): a weight [D, D] and a bias [D]. */
export type Projection = { w: tf.Tensor; b: tf.Tensor };

/** Slices i (0 = query, 1 = key, 2 = value) of the fused projection: a tiny copy, unlike slicing its output. */
export function projection(w: tf.Tensor, b: tf.Tensor, i: number): Projection {
  const D = w.shape[0]!;
  return { w: tf.slice(w, [0, i * D], [D, D]), b: tf.slice(b, [i * D], [D]) };
}

/** x [T·B, D] → [T, C, hd] for each of query, key and value. */
function project(x: tf.Tensor, qkv: Projection[], { B, H, hd }: Heads): tf.Tensor3D[] {
  const T = x.shape[0]! / B;
  return qkv.map(({ w, b }) => tf.add(tf.matMul(x as tf.Tensor2D, w as tf.Tensor2D), b).reshape([T, B * H, hd]));
}

/** A layer's cache: keys [S, hd, C] and values [S, C, hd], S the positions so far. */
export interface LayerCache {
  k: tf.Tensor3D;
  v: tf.Tensor3D;
}

/**
 * Decoding: x [T·B, D] at the T positions after the cached ones → the heads' outputs merged
 * [T·B, D] (before the output projection), and the layer's cache grown by these positions.
 * Scores come as keys·queryᵀ [S, C, T] (the cache's layout), the same sums as query·keyᵀ.
 */
export function attend(
  x: tf.Tensor,
  qkv: Projection[],
  heads: Heads,
  past: LayerCache | undefined,
): { y: tf.Tensor2D; cache: LayerCache } {
  const [q, kNew, vNew] = project(x, qkv, heads); // [T, C, hd] each
  const kRows = kNew!.transpose([0, 2, 1]); // [T, hd, C]
  const k = (past ? tf.concat([past.k, kRows], 0) : kRows) as tf.Tensor3D; // [S, hd, C]
  const v = (past ? tf.concat([past.v, vNew!], 0) : vNew!) as tf.Tensor3D; // [S, C, hd]
  const scores = groupMatMul(k, q!.transpose([2, 1, 0])).transpose([2, 1, 0]); // [S, C, T] → [T, C, S]
  const p = weights(scores, heads.hd);
  const y = groupMatMul(p.transpose([0, 2, 1]), v); // [T, S, C] · [S, C, hd] → [T, C, hd]
  return { y: y.reshape([x.shape[0]!, x.shape[1]!]) as tf.Tensor2D, cache: { k, v } };
}

/**
 * Training: the whole attention sublayer, x [T·B, D] → [T·B, D], fused projection and output
 * projection included; the weights must be variables (the backward reads them, unsaved).
 * Backward through softmax: dS = P ⊙ (dP − Σ dP ⊙ P).
 */
export function attentionBlock(
  x: tf.Tensor,
  wqkv: tf.Tensor,
  bqkv: tf.Tensor,
  wo: tf.Tensor,
  bo: tf.Tensor,
  heads: Heads,
): tf.Tensor {
  const f = tf.customGrad((...inputs: Array<tf.Tensor | tf.GradSaveFunc>) => {
    const [xs, save] = [inputs[0] as tf.Tensor2D, inputs[5] as tf.GradSaveFunc];
    const [N, D] = xs.shape;
    const [q, k, v] = project(
      xs,
      [0, 1, 2].map((i) => projection(wqkv, bqkv, i)),
      heads,
    ); // [T, C, hd] each
    const p = weights(groupMatMul(q!.transpose([0, 2, 1]), k!.transpose([2, 1, 0])), heads.hd); // [T, hd, C] · [hd, C, T] → [T, C, T]
    const merged = groupMatMul(p.transpose([0, 2, 1]), v!).reshape([N, D]) as tf.Tensor2D; // [T, C, hd] → [T·B, D]
    save([xs, q!, k!, v!, p, merged]);
    return {
      value: tf.add(tf.matMul(merged, wo as tf.Tensor2D), bo),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [xt, qs, ks, vs, ps, ms] = saved as [
          tf.Tensor2D,
          tf.Tensor3D,
          tf.Tensor3D,
          tf.Tensor3D,
          tf.Tensor3D,
          tf.Tensor2D,
        ];
        const d = dy as tf.Tensor2D;
        const dY = tf.matMul(d, tf.transpose(wo as tf.Tensor2D)).reshape(qs.shape); // [T, C, hd]
        const dp = groupMatMul(dY.transpose([0, 2, 1]), vs.transpose([2, 1, 0])); // dY·Vᵀ: [T, C, S]
        const dv = groupMatMul(ps.transpose([2, 0, 1]), dY); // Pᵀ·dY: [S, C, hd]
        const ds = tf.mul(tf.mul(ps, tf.sub(dp, tf.sum(tf.mul(dp, ps), -1, true))), 1 / Math.sqrt(heads.hd)); // [T, C, S]
        const dq = groupMatMul(ds.transpose([0, 2, 1]), ks); // dS·K: [T, C, hd]
        const dk = groupMatMul(ds.transpose([2, 0, 1]), qs); // dSᵀ·Q: [S, C, hd]
        const dqkv = tf.concat(
          [dq, dk, dv].map((g) => g.reshape([N, D])),
          1,
        ) as tf.Tensor2D; // [T·B, 3D]
        return [
          tf.matMul(dqkv, tf.transpose(wqkv as tf.Tensor2D)),
          tf.matMul(tf.transpose(xt), dqkv),
          sumRows(dqkv),
          tf.matMul(tf.transpose(ms), d),
          sumRows(d),
        ];
      },
    };
  });
  return f(x, wqkv, bqkv, wo, bo);
}
