/**
 * A small GPT-style character model (pre-LN, GELU, learned absolute positions, untied head,
 * std-0.02 init as nanoGPT), written with tf variables and ops so it runs the same on every
 * tfjs backend. Two entry points share one network: `logits` for training (full sequences,
 * causal mask, optional dropout, hand-written gradients) and `forward` for incremental decoding
 * (new positions attend to a key/value cache of earlier ones); they give the same logits.
 *
 * References: Radford et al. 2019 (GPT-2); Karpathy, nanoGPT.
 */
import * as tf from '@tensorflow/tfjs';
import type { ModelConfig } from '../config';
import { attend, attentionBlock, projection, type Heads, type Projection } from './attention';
import { canDecodeFused, decodeFused, type FusedCache } from './fused/decode';
import { paramShapes, type Params } from './params';
import { canTrainFused, trainLogitsFused } from './fused/train';
import { dropout, layerNorm, linear, matmul, mlp, residual } from './ops';

/** The unfused path's keys and values of earlier positions, per layer: keys [P, hd, C], values [P, C, hd], C = B·H. */
type LayerCaches = {
  kind: 'layers';
  k: tf.Tensor3D[];
  v: tf.Tensor3D[];
};

/** Keys and values of earlier positions, for decoding: whichever path made them reads them. */
export type KvCache = LayerCaches | FusedCache;

/** The tensors a cache holds, to dispose. */
export const cacheTensors = (c: KvCache): tf.Tensor[] => (c.kind === 'fused' ? [c.buffer] : [...c.k, ...c.v]);

export interface ForwardOptions {
  /** Absolute position of tokens[:, 0] (the cache length when decoding). */
  start?: number;
  cache?: KvCache;
  /** Projections sliced ahead by `frozen()`; absent = sliced at each call. */
  projections?: Projection[][];
}

export interface TrainOptions {
  /** A seed turns dropout on (supervised training only). */
  dropoutSeed?: number;
}

/** A model whose weights stay fixed for a while (a rollout): forward only, then dispose. */
export interface FrozenModel {
  config: ModelConfig;
  forward: CharModel['forward'];
  dispose(): void;
}

/** nanoGPT init: N(0, 0.02), residual projections scaled by 1/sqrt(2·layers), LN gains 1, biases 0. */
function initParams(c: ModelConfig, seed: number): Params {
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

function disposeParams(params: Params): void {
  for (const v of Object.values(params)) v.dispose();
}

export class CharModel {
  readonly headSize: number;

  constructor(
    readonly config: ModelConfig,
    readonly params: Params,
  ) {
    if (config.dModel % config.heads !== 0)
      throw new Error(`CharModel: dModel ${config.dModel} is not divisible by heads ${config.heads}`);
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
   * packs those weights once. For decoding only, like `forward`.
   */
  frozen(): FrozenModel {
    // The fused decoder reads the weights where they are: nothing to slice ahead.
    if (canDecodeFused(this.config, 0, undefined))
      return { config: this.config, forward: (tokens, opts) => this.forward(tokens, opts), dispose: () => {} };
    const projections = this.layers().map((l) =>
      [0, 1, 2].map((i) => projection(this.p(`h${l}.attn.qkv.w`), this.p(`h${l}.attn.qkv.b`), i)),
    );
    return {
      config: this.config,
      forward: (tokens, opts = {}) => this.forward(tokens, { ...opts, projections }),
      dispose: () => tf.dispose(projections.flat().flatMap((p) => [p.w, p.b])),
    };
  }

  /**
   * Decoding: tokens [B, T] int32 at positions start.. → logits [B, T, V], and the key/value
   * cache extended by these T positions. The caller owns the returned tensors (call inside
   * tf.tidy or dispose them). For decoding only: train with `logits` (on WASM this forward's
   * depthwise convolutions have no gradient kernels).
   */
  forward(tokens: tf.Tensor2D, opts: ForwardOptions = {}): { logits: tf.Tensor3D; cache: KvCache } {
    const start = opts.start ?? 0;
    if (canDecodeFused(this.config, start, opts.cache))
      return decodeFused(this.config, this.params, tokens, start, opts.cache as FusedCache | undefined);
    if (opts.cache?.kind === 'fused')
      throw new Error('CharModel.forward: a fused cache, but the fused kernels are off or cannot run here');
    const cache: LayerCaches = { kind: 'layers', k: [], v: [] };
    const heads = this.heads(tokens.shape[0]);
    const logits = this.run(tokens, start, undefined, (x, l) => {
      const qkv =
        opts.projections?.[l] ??
        [0, 1, 2].map((i) => projection(this.p(`h${l}.attn.qkv.w`), this.p(`h${l}.attn.qkv.b`), i));
      const past = opts.cache?.kind === 'layers' ? { k: opts.cache.k[l]!, v: opts.cache.v[l]! } : undefined;
      const { y, cache: grown } = attend(x, qkv, heads, past);
      cache.k.push(grown.k);
      cache.v.push(grown.v);
      return linear(y, this.p(`h${l}.attn.proj.w`), this.p(`h${l}.attn.proj.b`));
    });
    return { logits, cache };
  }

  /**
   * Training: tokens [B, T] int32 from position 0 → logits [B, T, V], with no cache and a
   * hand-written gradient for each block. The same values as `forward`, bit for bit.
   */
  logits(tokens: tf.Tensor2D, opts: TrainOptions = {}): tf.Tensor3D {
    if (canTrainFused(this.config)) return trainLogitsFused(this.config, this.params, tokens, opts.dropoutSeed);
    const heads = this.heads(tokens.shape[0]);
    return this.run(tokens, 0, opts.dropoutSeed, (x, l) => {
      const h = `h${l}`;
      return attentionBlock(
        x,
        this.p(`${h}.attn.qkv.w`),
        this.p(`${h}.attn.qkv.b`),
        this.p(`${h}.attn.proj.w`),
        this.p(`${h}.attn.proj.b`),
        heads,
      );
    });
  }

  private heads(B: number): Heads {
    return { B, H: this.config.heads, hd: this.headSize };
  }

  private layers(): number[] {
    return Array.from({ length: this.config.layers }, (_, l) => l);
  }

  private p(name: string): tf.Variable {
    const v = this.params[name];
    if (!v) throw new Error(`CharModel: no parameter named ${name}`);
    return v;
  }

  /** The network around its attention sublayers: x [T·B, D] throughout (time-major), logits [B, T, V] out. */
  private run(
    tokens: tf.Tensor2D,
    start: number,
    dropoutSeed: number | undefined,
    attention: (x: tf.Tensor, l: number) => tf.Tensor,
  ): tf.Tensor3D {
    const [B, T] = tokens.shape;
    const { context, dModel: D, vocabSize: V, dropout: rate } = this.config;
    if (start + T > context)
      throw new Error(`CharModel.forward: positions ${start}..${start + T - 1} exceed the context ${context}`);
    let seed = dropoutSeed;
    const drop = (x: tf.Tensor): tf.Tensor => (seed === undefined || rate === 0 ? x : dropout(x, rate, seed++));

    // Embeddings as a one-hot matmul: gather's gradient needs UnsortedSegmentSum, which the
    // WASM backend lacks (and its gather kernel is slower than this matmul at our sizes).
    const ids = T === 1 ? tokens.reshape([B]) : tokens.transpose().reshape([T * B]); // time-major
    const tok = matmul(tf.oneHot(ids, V).toFloat(), this.p('wte')); // [T·B, D]
    const pos = tf.slice(this.p('wpe'), [start, 0], [T, D]); // [T, D]
    let x = T === 1 ? tf.add(tok, pos) : tf.add(tok.reshape([T, B, D]), pos.reshape([T, 1, D])).reshape([T * B, D]); // [T·B, D]
    x = drop(x);
    for (const l of this.layers()) {
      const h = `h${l}`;
      x = residual(x, drop(attention(layerNorm(x, this.p(`${h}.ln1.g`), this.p(`${h}.ln1.b`)), l)));
      const n2 = layerNorm(x, this.p(`${h}.ln2.g`), this.p(`${h}.ln2.b`));
      x = residual(
        x,
        drop(
          mlp(
            n2,
            this.p(`${h}.mlp.fc.w`),
            this.p(`${h}.mlp.fc.b`),
            this.p(`${h}.mlp.proj.w`),
            this.p(`${h}.mlp.proj.b`),
          ),
        ),
      ); // [T·B, D]
    }
    x = layerNorm(x, this.p('lnf.g'), this.p('lnf.b'));
    const logits = linear(x, this.p('head.w'), this.p('head.b')); // [T·B, V]
    return (T === 1 ? logits.reshape([B, 1, V]) : logits.reshape([T, B, V]).transpose([1, 0, 2])) as tf.Tensor3D;
  }
}
