/**
 * The model's forward pass as one sequence of calls into the fused module, for one kernel: the
 * embeddings, each layer (layer norm, q/k/v, attention over the key/value cache, projection,
 * residual, layer norm, MLP, residual) and the head, where the unfused path runs ~60 tfjs kernels
 * per layer. Shared by decoding (decode.ts: a cache that grows) and training (train.ts: no cache,
 * every activation the backward needs kept on a tape).
 */
import type { ModelConfig } from '../../config';
import { GELU_A, GELU_C, LAYER_NORM_EPS } from '../ops';
import type { FusedModule, Scratch } from './module';

/** Heap offsets of the parameters, by name (model/gpt.ts's paramShapes). */
export type WeightOffsets = (name: string) => number;

/** The shapes of one forward call. */
export interface PassShape {
  config: ModelConfig;
  B: number;
  T: number;
  /** Absolute position of the first of the T positions. */
  start: number;
  /** Positions each layer's cache has room for, a multiple of 4. */
  cap: number;
}

/** Where one layer's cache lives: keys [C, hd, cap] then values [C, cap, hd]. */
export const layerCacheFloats = (s: PassShape): number => 2 * s.B * s.config.dModel * s.cap;

/** Activations kept for the backward pass, per layer (offsets into the tape), or none. */
export interface LayerTape {
  y1: number;
  xhat1: number;
  r1: number;
  qkv: number;
  probs: number;
  merged: number;
  y2: number;
  xhat2: number;
  r2: number;
  h: number;
  s: number;
  a: number;
}

/** Dropout masks (offsets), when training with dropout: after the embeddings, and per layer after attention and after the MLP. */
export interface Masks {
  embed: number;
  attention: number[];
  mlp: number[];
}

export interface PassBuffers {
  ids: number;
  /** [L · layerCacheFloats]: all layers' caches. */
  cache: number;
  /** [T·B, V] time-major logits. */
  logits: number;
  tape?: { layers: LayerTape[]; final: { y: number; xhat: number; r: number } };
  masks?: Masks;
}

/** Scratch the pass needs, in floats per part. */
export function passScratch(s: PassShape): Record<string, number> {
  const { dModel: D, heads: H } = s.config;
  const N = s.T * s.B;
  const S = s.start + s.T;
  return {
    x: N * D,
    y: N * D,
    qkv: N * 3 * D,
    scores: s.T * s.B * H * S,
    probs: s.T * s.B * H * S,
    merged: N * D,
    h: N * 4 * D,
    z: N * 4 * D,
    s: N * 4 * D,
    out: N * D,
  };
}

/** Runs the forward pass: logits into buf.logits, the new positions' keys and values into buf.cache. */
export function forwardPass(m: FusedModule, w: WeightOffsets, s: PassShape, buf: PassBuffers, at: Scratch): void {
  const { dModel: D, vocabSize: V, layers } = s.config;
  const N = s.T * s.B;
  m.k.embed(buf.ids, w('wte'), w('wpe'), at.x!, s.B, s.T, V, D, s.start);
  if (buf.masks) m.k.mul(at.x!, buf.masks.embed, at.x!, N * D);
  for (let l = 0; l < layers; l++) layerPass(m, w, s, buf, at, l);
  const f = buf.tape?.final;
  const y = f?.y ?? at.y!;
  m.k.layerNorm(at.x!, w('lnf.g'), w('lnf.b'), y, f?.xhat ?? 0, f?.r ?? 0, N, D, LAYER_NORM_EPS);
  m.k.matmul(y, w('head.w'), w('head.b'), buf.logits, N, D, V, 0);
}

function layerPass(m: FusedModule, w: WeightOffsets, s: PassShape, buf: PassBuffers, at: Scratch, l: number): void {
  const { dModel: D, heads: H } = s.config;
  const hd = D / H;
  const N = s.T * s.B;
  const S = s.start + s.T;
  const h = `h${l}`;
  const tape = buf.tape?.layers[l];
  const keys = buf.cache + 4 * l * layerCacheFloats(s);
  const values = keys + 4 * s.B * D * s.cap;
  const y1 = tape?.y1 ?? at.y!;
  m.k.layerNorm(at.x!, w(`${h}.ln1.g`), w(`${h}.ln1.b`), y1, tape?.xhat1 ?? 0, tape?.r1 ?? 0, N, D, LAYER_NORM_EPS);
  const qkv = tape?.qkv ?? at.qkv!;
  m.k.matmul(y1, w(`${h}.attn.qkv.w`), w(`${h}.attn.qkv.b`), qkv, N, D, 3 * D, 0);
  m.k.cacheWrite(qkv, keys, values, s.T, s.B, H, hd, s.start, s.cap);
  m.k.attentionScores(qkv, keys, at.scores!, s.T, s.B, H, hd, S, s.cap, 1 / Math.sqrt(hd));
  const probs = tape?.probs ?? at.probs!;
  m.softmax(at.scores!, probs, S, s.T * s.B * H);
  const merged = tape?.merged ?? at.merged!;
  m.k.attentionValues(probs, values, merged, s.T, s.B, H, hd, S, s.cap);
  residualLinear(m, at, merged, w(`${h}.attn.proj.w`), w(`${h}.attn.proj.b`), N, D, D, buf.masks?.attention[l]);
  const y2 = tape?.y2 ?? at.y!;
  m.k.layerNorm(at.x!, w(`${h}.ln2.g`), w(`${h}.ln2.b`), y2, tape?.xhat2 ?? 0, tape?.r2 ?? 0, N, D, LAYER_NORM_EPS);
  const hidden = tape?.h ?? at.h!;
  m.k.matmul(y2, w(`${h}.mlp.fc.w`), w(`${h}.mlp.fc.b`), hidden, N, D, 4 * D, 0);
  m.k.geluArgument(hidden, at.z!, N * 4 * D, GELU_C, GELU_A);
  const sig = tape?.s ?? at.s!;
  m.sigmoid(at.z!, sig, N * 4 * D);
  const a = tape?.a ?? at.z!;
  m.k.mul(hidden, sig, a, N * 4 * D);
  residualLinear(m, at, a, w(`${h}.mlp.proj.w`), w(`${h}.mlp.proj.b`), N, 4 * D, D, buf.masks?.mlp[l]);
}

/** x += input @ w + b, or x += (input @ w + b) · mask with dropout, as residual(x, drop(linear(…))) rounds it. */
function residualLinear(
  m: FusedModule,
  at: Scratch,
  input: number,
  w: number,
  b: number,
  N: number,
  K: number,
  D: number,
  mask: number | undefined,
): void {
  if (mask === undefined) {
    m.k.matmul(input, w, b, at.x!, N, K, D, 1);
    return;
  }
  m.k.matmul(input, w, b, at.out!, N, K, D, 0);
  m.k.mul(at.out!, mask, at.out!, N * D);
  m.k.add(at.x!, at.out!, at.x!, N * D);
}
