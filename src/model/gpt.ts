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
  /** Projections sliced ahead by `frozen()`; absent = sliced here (and differentiable). */
  projections?: Projections;
}

/** Per layer, the query, key and value weights and biases: slices of the fused qkv parameters. */
export type Projections = { w: tf.Tensor; b: tf.Tensor }[][];

/** A model whose weights stay fixed for a while (a rollout): forward only, then dispose. */
export interface FrozenModel {
  config: ModelConfig;
  forward: CharModel['forward'];
  dispose(): void;
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

  /**
   * The same forward, for as long as the weights do not change (a rollout): the q, k, v slices
   * of each layer's fused projection are taken once, not at every position, so XNNPACK also
   * packs those weights once. Not for training: gradients do not reach the slices' source.
   */
  frozen(): FrozenModel {
    const projections: Projections = this.layers().map((l) => [0, 1, 2].map((i) => this.projection(l, i)));
    return {
      config: this.config,
      forward: (tokens, opts = {}) => this.forward(tokens, { ...opts, projections }),
      dispose: () => tf.dispose(projections.flat().flatMap((p) => [p.w, p.b])),
    };
  }

  private layers(): number[] {
    return Array.from({ length: this.config.layers }, (_, l) => l);
  }

  /** Weight [D, D] and bias [D] of layer l's query (i = 0), key (1) or value (2) projection. */
  private projection(l: number, i: number): { w: tf.Tensor; b: tf.Tensor } {
    const D = this.config.dModel;
    return { w: tf.slice(this.p(`h${l}.attn.qkv.w`), [0, i * D], [D, D]), b: tf.slice(this.p(`h${l}.attn.qkv.b`), [i * D], [D]) };
  }

  private p(name: string): tf.Variable {
    const v = this.params[name];
    if (!v) throw new Error(`CharModel: no parameter named ${name}`);
    return v;
  }

  /**
   * tokens: [B, T] int32 → logits [B, T, V], and the cache extended by these T positions.
   * The caller owns the returned tensors (call inside tf.tidy or dispose them).
   * Activations stay [B·T, D] throughout, so a linear layer is one matmul and one add.
   */
  forward(tokens: tf.Tensor2D, opts: ForwardOptions = {}): { logits: tf.Tensor3D; cache: KvCache } {
    const [B, T] = tokens.shape;
    const start = opts.start ?? 0;
    if (start + T > this.config.context) throw new Error(`CharModel.forward: positions ${start}..${start + T - 1} exceed the context ${this.config.context}`);
    let seed = opts.dropoutSeed;
    const drop = (x: tf.Tensor): tf.Tensor =>
      seed === undefined || this.config.dropout === 0 ? x : tf.dropout(x, this.config.dropout, undefined, seed++);

    // Embeddings as a one-hot matmul: gather's gradient needs UnsortedSegmentSum, which the
    // WASM backend lacks (and its gather kernel is slower than this matmul at our sizes).
    const D = this.config.dModel;
    const tok = matmul(tf.oneHot(tokens.reshape([-1]), this.config.vocabSize).toFloat(), this.p('wte')); // [B·T, D]
    const pos = tf.slice(this.p('wpe'), [start, 0], [T, D]); // [T, D]
    let x = T === 1 ? tf.add(tok, pos) : tf.add(tok.reshape([B, T, D]), pos).reshape([B * T, D]); // [B·T, D]
    x = drop(x);
    const cache: KvCache = { k: [], v: [] };
    for (let l = 0; l < this.config.layers; l++) {
      const h = `h${l}`;
      const a = this.attention(layerNorm(x, this.p(`${h}.ln1.g`), this.p(`${h}.ln1.b`)), B, l, opts, cache);
      x = tf.add(x, drop(a));
      const n2 = layerNorm(x, this.p(`${h}.ln2.g`), this.p(`${h}.ln2.b`));
      const m = linear(gelu(linear(n2, this.p(`${h}.mlp.fc.w`), this.p(`${h}.mlp.fc.b`))), this.p(`${h}.mlp.proj.w`), this.p(`${h}.mlp.proj.b`));
      x = tf.add(x, drop(m)); // [B·T, D]
    }
    x = layerNorm(x, this.p('lnf.g'), this.p('lnf.b'));
    const logits = linear(x, this.p('head.w'), this.p('head.b')).reshape([B, T, this.config.vocabSize]) as tf.Tensor3D;
    return { logits, cache };
  }

  /** Causal self-attention of x: [B·T, D] over the cached positions and its own. */
  private attention(x: tf.Tensor, B: number, l: number, opts: ForwardOptions, out: KvCache): tf.Tensor {
    const [N, D] = x.shape as [number, number];
    const T = N / B;
    const H = this.config.heads;
    const hd = this.headSize;
    // Three projections from slices of the fused weight, not one projection split three ways:
    // on WASM, slicing activations is a JavaScript copy of the whole tensor per piece (~2 ms at
    // training size), slicing the [D, 3D] weight is tiny.
    const [q, kNew, vNew] = [0, 1, 2].map((i) => {
      const { w, b } = opts.projections?.[l]![i]! ?? this.projection(l, i);
      return toHeads(linear(x, w, b), B, T, H, hd); // [B·T, D] → [B, H, T, hd]
    }) as [tf.Tensor4D, tf.Tensor4D, tf.Tensor4D];
    const past = opts.cache;
    const k = past ? tf.concat([past.k[l]!, kNew], 2) : kNew; // [B, H, S, hd], S = P + T
    const v = past ? tf.concat([past.v[l]!, vNew], 2) : vNew;
    out.k.push(k as tf.Tensor4D);
    out.v.push(v as tf.Tensor4D);
    const S = k.shape[2];
    // The batch matmuls below take WASM's plain loop whatever their layout (XNNPACK serves only
    // unbatched ones), so transposeB costs nothing there and saves a transpose kernel.
    let att = tf.mul(tf.matMul(q.reshape([B * H, T, hd]), k.reshape([B * H, S, hd]), false, true), 1 / Math.sqrt(hd)); // [B·H, T, S]
    if (T > 1) att = tf.add(att, causalMask(T, S)); // [T, S], broadcast
    const y = tf.matMul(tf.softmax(att), v.reshape([B * H, S, hd])); // [B·H, T, hd]
    const merged = T === 1 ? y.reshape([N, D]) : y.reshape([B, H, T, hd]).transpose([0, 2, 1, 3]).reshape([N, D]);
    return linear(merged, this.p(`h${l}.attn.proj.w`), this.p(`h${l}.attn.proj.b`)); // [B·T, D]
  }
}

/** [B·T, H·hd] → [B, H, T, hd]; for one position a reshape, else one transpose. */
function toHeads(y: tf.Tensor, B: number, T: number, H: number, hd: number): tf.Tensor4D {
  return (T === 1 ? y.reshape([B, H, 1, hd]) : y.reshape([B, T, H, hd]).transpose([0, 2, 1, 3])) as tf.Tensor4D;
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
