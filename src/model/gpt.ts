/**
 * A small GPT-style character model (pre-LN, GELU, learned absolute positions, untied head,
 * std-0.02 init as nanoGPT), written with tf variables and ops so it runs the same on every
 * tfjs backend. One forward serves training (full sequences, causal mask, optional dropout)
 * and incremental decoding (new positions attend to a key/value cache of earlier ones).
 *
 * References: Radford et al. 2019 (GPT-2); Karpathy, nanoGPT.
 */
import * as tf from '@tensorflow/tfjs';
import type { ModelConfig } from '../config';
import { gelu, layerNorm, linear, matmul } from './ops';

export type Params = Record<string, tf.Variable>;
export type ParamShapes = Record<string, number[]>;

/** Keys and values of earlier positions, per layer: [B, H, P, hd] each. */
export type KvCache = {
  k: tf.Tensor4D[];
  v: tf.Tensor4D[];
};

export interface ForwardOptions {
  /** Absolute position of tokens[:, 0] (the cache length when decoding). */
  start?: number;
  cache?: KvCache;
  /** A seed turns dropout on (supervised training only). */
  dropoutSeed?: number;
}

export function paramShapes(c: ModelConfig): ParamShapes {
  const d = c.dModel;
  const shapes: ParamShapes = { wte: [c.vocabSize, d], wpe: [c.context, d] };
  for (let l = 0; l < c.layers; l++) {
    Object.assign(shapes, {
      [`h${l}.ln1.g`]: [d], [`h${l}.ln1.b`]: [d],
      [`h${l}.attn.qkv.w`]: [d, 3 * d], [`h${l}.attn.qkv.b`]: [3 * d],
      [`h${l}.attn.proj.w`]: [d, d], [`h${l}.attn.proj.b`]: [d],
      [`h${l}.ln2.g`]: [d], [`h${l}.ln2.b`]: [d],
      [`h${l}.mlp.fc.w`]: [d, 4 * d], [`h${l}.mlp.fc.b`]: [4 * d],
      [`h${l}.mlp.proj.w`]: [4 * d, d], [`h${l}.mlp.proj.b`]: [d],
    });
  }
  Object.assign(shapes, { 'lnf.g': [d], 'lnf.b': [d], 'head.w': [d, c.vocabSize], 'head.b': [c.vocabSize] });
  return shapes;
}

export const countParams = (c: ModelConfig): number =>
  Object.values(paramShapes(c)).reduce((n, s) => n + s.reduce((a, b) => a * b, 1), 0);

/** nanoGPT init: N(0, 0.02), residual projections scaled by 1/sqrt(2·layers), LN gains 1, biases 0. */
export function initParams(c: ModelConfig, seed: number): Params {
  const params: Params = {};
  let i = 0;
  for (const [name, shape] of Object.entries(paramShapes(c))) {
    const residual = name.endsWith('proj.w');
    const std = residual ? 0.02 / Math.sqrt(2 * c.layers) : 0.02;
    const init = name.endsWith('.g')
      ? tf.ones(shape)
      : name.endsWith('.b')
        ? tf.zeros(shape)
        : tf.randomNormal(shape, 0, std, 'float32', seed + 7919 * ++i);
    params[name] = tf.variable(init, true); // unnamed: tfjs names must be unique across models
    init.dispose();
  }
  return params;
}

export function disposeParams(params: Params): void {
  for (const v of Object.values(params)) v.dispose();
}

export class CharModel {
  readonly headSize: number;

  constructor(
    readonly config: ModelConfig,
    readonly params: Params,
  ) {
    if (config.dModel % config.heads !== 0) throw new Error(`CharModel: dModel ${config.dModel} is not divisible by heads ${config.heads}`);
    this.headSize = config.dModel / config.heads;
  }

  static create(config: ModelConfig, seed: number): CharModel {
    return new CharModel(config, initParams(config, seed));
  }

  get trainable(): tf.Variable[] {
    return Object.values(this.params);
  }

  dispose(): void {
    disposeParams(this.params);
  }

  private p(name: string): tf.Variable {
    const v = this.params[name];
    if (!v) throw new Error(`CharModel: no parameter named ${name}`);
    return v;
  }

  /**
   * tokens: [B, T] int32 → logits [B, T, V], and the cache extended by these T positions.
   * The caller owns the returned tensors (call inside tf.tidy or dispose them).
   */
  forward(tokens: tf.Tensor2D, opts: ForwardOptions = {}): { logits: tf.Tensor3D; cache: KvCache } {
    const T = tokens.shape[1];
    const start = opts.start ?? 0;
    if (start + T > this.config.context) throw new Error(`CharModel.forward: positions ${start}..${start + T - 1} exceed the context ${this.config.context}`);
    let seed = opts.dropoutSeed;
    const drop = (x: tf.Tensor): tf.Tensor =>
      seed === undefined || this.config.dropout === 0 ? x : tf.dropout(x, this.config.dropout, undefined, seed++);

    // Embeddings as a one-hot matmul and a slice: gather's gradient needs UnsortedSegmentSum,
    // which the WASM backend lacks.
    const B = tokens.shape[0];
    const D = this.config.dModel;
    const V = this.config.vocabSize;
    const tok = matmul(tf.oneHot(tokens.reshape([-1]), V).toFloat(), this.p('wte')).reshape([B, T, D]); // [B, T, D]
    const pos = tf.slice(this.p('wpe'), [start, 0], [T, D]); // [T, D]
    let x = tf.add(tok, pos); // [B, T, D]
    x = drop(x);
    const cache: KvCache = { k: [], v: [] };
    for (let l = 0; l < this.config.layers; l++) {
      const h = `h${l}`;
      const a = this.attention(layerNorm(x, this.p(`${h}.ln1.g`), this.p(`${h}.ln1.b`)), l, opts.cache, cache);
      x = tf.add(x, drop(a));
      const n2 = layerNorm(x, this.p(`${h}.ln2.g`), this.p(`${h}.ln2.b`));
      const m = linear(gelu(linear(n2, this.p(`${h}.mlp.fc.w`), this.p(`${h}.mlp.fc.b`))), this.p(`${h}.mlp.proj.w`), this.p(`${h}.mlp.proj.b`));
      x = tf.add(x, drop(m)); // [B, T, D]
    }
    x = layerNorm(x, this.p('lnf.g'), this.p('lnf.b'));
    const logits = linear(x, this.p('head.w'), this.p('head.b')) as tf.Tensor3D; // [B, T, V]
    return { logits, cache };
  }

  /** Causal self-attention of x: [B, T, D] over the cached positions and its own. */
  private attention(x: tf.Tensor, l: number, past: KvCache | undefined, out: KvCache): tf.Tensor {
    const [B, T, D] = x.shape as [number, number, number];
    const H = this.config.heads;
    const hd = this.headSize;
    const qkv = linear(x, this.p(`h${l}.attn.qkv.w`), this.p(`h${l}.attn.qkv.b`)); // [B, T, 3D]
    const heads = (t: tf.Tensor) => t.reshape([B, T, H, hd]).transpose([0, 2, 1, 3]) as tf.Tensor4D; // [B, H, T, hd]
    const [q, kNew, vNew] = tf.split(qkv, 3, -1).map(heads) as [tf.Tensor4D, tf.Tensor4D, tf.Tensor4D];
    const k = past ? tf.concat([past.k[l]!, kNew], 2) : kNew; // [B, H, S, hd], S = P + T
    const v = past ? tf.concat([past.v[l]!, vNew], 2) : vNew;
    out.k.push(k);
    out.v.push(v);
    const S = k.shape[2];
    const P = S - T;
    const qf = q.reshape([B * H, T, hd]);
    const kT = k.reshape([B * H, S, hd]).transpose([0, 2, 1]); // [BH, hd, S]
    let att = tf.mul(matmul(qf, kT), 1 / Math.sqrt(hd)); // [BH, T, S]
    if (T > 1) {
      // Query i sits at absolute position P + i and may see keys 0..P + i.
      const allowed = tf.linalg.bandPart(tf.ones([T, S]), -1, P); // [T, S]
      att = tf.add(att, tf.mul(tf.sub(1, allowed), -1e9));
    }
    const y = matmul(tf.softmax(att), v.reshape([B * H, S, hd])); // [BH, T, hd]
    const merged = y.reshape([B, H, T, hd]).transpose([0, 2, 1, 3]).reshape([B, T, D]);
    return linear(merged, this.p(`h${l}.attn.proj.w`), this.p(`h${l}.attn.proj.b`)); // [B, T, D]
  }
}
