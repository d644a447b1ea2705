/**
 * Causal multi-head self-attention, twice: `attend` for decoding (plain ops, grows a key/value
 * cache) and `attentionBlock` for training (no cache, a hand-written gradient; see ops.ts for
 * why). Both run the same kernels in the same order, so they give the same values bit for bit.
 *
 * On WASM a batched matmul takes a plain loop whatever its layout (XNNPACK serves only unbatched
 * ones), so transpose flags cost nothing there and save transpose kernels.
 */
import * as tf from '@tensorflow/tfjs';
import { sumRows } from './ops';

export interface Heads {
  /** Batch rows (the sequences). */
  B: number;
  H: number;
  /** Head size. */
  hd: number;
}

/** [B·T, H·hd] → [B, H, T, hd]: one transpose, or a reshape for a single position. */
export function toHeads(y: tf.Tensor, { B, H, hd }: Heads): tf.Tensor4D {
  const T = y.shape[0]! / B;
  return (T === 1 ? y.reshape([B, H, 1, hd]) : y.reshape([B, T, H, hd]).transpose([0, 2, 1, 3])) as tf.Tensor4D;
}

/** [B·H, T, hd] → [B·T, H·hd], the inverse of toHeads. */
export function fromHeads(y: tf.Tensor, { B, H, hd }: Heads): tf.Tensor2D {
  const T = y.shape[1]!;
  return (T === 1 ? y.reshape([B, H * hd]) : y.reshape([B, H, T, hd]).transpose([0, 2, 1, 3]).reshape([B * T, H * hd])) as tf.Tensor2D;
}

/**
 * Attention weights of T queries over S keys, the queries at the last T positions: q [B·H, T, hd],
 * k [B·H, S, hd] → softmax(q·kᵀ/√hd + mask) [B·H, T, S].
 */
export function weights(q: tf.Tensor, k: tf.Tensor, hd: number): tf.Tensor3D {
  const [, T] = q.shape as number[];
  const S = k.shape[1]!;
  let att = tf.mul(tf.matMul(q as tf.Tensor3D, k as tf.Tensor3D, false, true), 1 / Math.sqrt(hd)); // [B·H, T, S]
  if (T! > 1) att = tf.add(att, causalMask(T!, S)); // [T, S], broadcast
  return tf.softmax(att) as tf.Tensor3D;
}

const masks = new Map<string, Float32Array>();

/**
 * The additive causal mask for T queries at positions S − T .. S − 1 over S keys: query i may
 * see keys 0 .. S − T + i. Values are -0 where allowed and -1e9 elsewhere, exactly what
 * (1 − allowed) · −1e9 gives. Built once per shape in plain memory, so no tensor outlives a call.
 */
function causalMask(T: number, S: number): tf.Tensor2D {
  const key = `${T}x${S}`;
  let m = masks.get(key);
  if (!m) {
    m = new Float32Array(T * S).fill(-0);
    for (let i = 0; i < T; i++) for (let j = S - T + i + 1; j < S; j++) m[i * S + j] = -1e9;
    masks.set(key, m);
  }
  return tf.tensor2d(m, [T, S]);
}

/** Per projection (query, key, value): a weight [D, D] and a bias [D]. */
export type Projection = { w: tf.Tensor; b: tf.Tensor };

/** Slices i (0 = query, 1 = key, 2 = value) of the fused projection: a tiny copy, unlike slicing its output. */
export function projection(w: tf.Tensor, b: tf.Tensor, i: number): Projection {
  const D = w.shape[0]!;
  return { w: tf.slice(w, [0, i * D], [D, D]), b: tf.slice(b, [i * D], [D]) };
}

/**
 * Decoding: x [B·T, D] at the T positions after the cached ones → the heads' outputs merged
 * [B·T, D] (before the output projection), and this layer's keys and values [B, H, S, hd].
 */
export function attend(
  x: tf.Tensor,
  qkv: Projection[],
  heads: Heads,
  past: { k: tf.Tensor4D; v: tf.Tensor4D } | undefined,
): { y: tf.Tensor2D; k: tf.Tensor4D; v: tf.Tensor4D } {
  const { B, H, hd } = heads;
  const [q, kNew, vNew] = qkv.map(({ w, b }) => toHeads(tf.add(tf.matMul(x as tf.Tensor2D, w as tf.Tensor2D), b), heads)) as [tf.Tensor4D, tf.Tensor4D, tf.Tensor4D];
  const k = past ? (tf.concat([past.k, kNew], 2) as tf.Tensor4D) : kNew; // [B, H, S, hd], S = P + T
  const v = past ? (tf.concat([past.v, vNew], 2) as tf.Tensor4D) : vNew;
  const [T, S] = [q.shape[2], k.shape[2]];
  const p = weights(q.reshape([B * H, T, hd]), k.reshape([B * H, S, hd]), hd);
  const y = tf.matMul(p, v.reshape([B * H, S, hd]) as tf.Tensor3D); // [B·H, T, hd]
  return { y: fromHeads(y, heads), k, v };
}

/**
 * Training: the whole attention sublayer, x [B·T, D] → [B·T, D], fused projection and output
 * projection included. Backward through softmax: dS = P ⊙ (dP − Σ dP ⊙ P).
 */
export function attentionBlock(x: tf.Tensor, wqkv: tf.Tensor, bqkv: tf.Tensor, wo: tf.Tensor, bo: tf.Tensor, heads: Heads): tf.Tensor {
  const { B, H, hd } = heads;
  const f = tf.customGrad((...inputs: Array<tf.Tensor | tf.GradSaveFunc>) => {
    const [xs, save] = [inputs[0] as tf.Tensor2D, inputs[5] as tf.GradSaveFunc];
    const T = xs.shape[0] / B;
    const flat = (t: tf.Tensor, n: number) => t.reshape([B * H, n, hd]) as tf.Tensor3D;
    const [q, k, v] = [0, 1, 2].map((i) => {
      const { w, b } = projection(wqkv, bqkv, i);
      return flat(toHeads(tf.add(tf.matMul(xs, w as tf.Tensor2D), b), heads), T);
    }) as [tf.Tensor3D, tf.Tensor3D, tf.Tensor3D];
    const p = weights(q, k, hd);
    const merged = fromHeads(tf.matMul(p, v), heads);
    save([xs, q, k, v, p, merged]);
    return {
      value: tf.add(tf.matMul(merged, wo as tf.Tensor2D), bo),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [xt, qs, ks, vs, ps, ms] = saved as [tf.Tensor2D, tf.Tensor3D, tf.Tensor3D, tf.Tensor3D, tf.Tensor3D, tf.Tensor2D];
        const d = dy as tf.Tensor2D;
        const dyh = flat(toHeads(tf.matMul(d, tf.transpose(wo as tf.Tensor2D)), heads), T); // [B·H, T, hd]
        const dp = tf.matMul(dyh, vs, false, true); // [B·H, T, T]
        const dv = tf.matMul(ps, dyh, true, false);
        const ds = tf.mul(tf.mul(ps, tf.sub(dp, tf.sum(tf.mul(dp, ps), -1, true))), 1 / Math.sqrt(hd));
        const dq = tf.matMul(ds, ks);
        const dk = tf.matMul(ds, qs, true, false);
        const dqkv = tf.concat([dq, dk, dv].map((g) => fromHeads(g, heads)), 1) as tf.Tensor2D; // [B·T, 3D]
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
