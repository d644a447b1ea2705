/**
 * Training logits in two tfjs kernels where the unfused path runs ~500: one forward over the whole
 * batch that keeps what the backward needs on a tape, and one backward, registered through
 * tf.customGrad, that returns every parameter's gradient. The same sums in the same order as
 * model/ops.ts's and model/attention.ts's hand-written gradients, so the same bits
 * (test/model/fused-train.test.ts).
 */
import * as tf from '@tensorflow/tfjs';
import type { ModelConfig } from '../../config';
import { paramShapes, type Params } from '../params';
import { dropoutMask, GELU_A, GELU_C } from '../ops';
import {
  forwardPass,
  layerCacheFloats,
  passScratch,
  type LayerTape,
  type Masks,
  type PassBuffers,
  type PassShape,
} from './forward';
import { fusedModule, handOver, moduleOf, recording, type FusedModule, type KernelArgs } from './module';

/** @internal A test seam: exported for the tests that count the kernels a step runs. */
export const TRAIN_FORWARD_KERNEL = 'MultiTurnRLTrainForward';
/** @internal A test seam: exported for the tests that count the kernels a step runs. */
export const TRAIN_BACKWARD_KERNEL = 'MultiTurnRLTrainBackward';

/** Whether the fused training kernels can run for this model here. */
export function canTrainFused(config: ModelConfig): boolean {
  return fusedModule() !== null && config.dModel % 4 === 0 && (config.dModel / config.heads) % 4 === 0;
}

type Dims = Pick<ModelConfig, 'vocabSize' | 'context' | 'layers' | 'dModel' | 'heads'>;
const dims = (c: ModelConfig): Dims => ({
  vocabSize: c.vocabSize,
  context: c.context,
  layers: c.layers,
  dModel: c.dModel,
  heads: c.heads,
});
const capOf = (T: number) => Math.ceil(T / 4) * 4;

/** tokens [B, T] from position 0 → logits [B, T, V], with a gradient for every parameter when a tape records. */
export function trainLogitsFused(
  config: ModelConfig,
  params: Params,
  tokens: tf.Tensor2D,
  dropoutSeed: number | undefined,
): tf.Tensor3D {
  register();
  const [B, T] = tokens.shape;
  const masks = dropoutSeed === undefined || config.dropout === 0 ? {} : makeMasks(config, B * T, dropoutSeed);
  const names = Object.keys(paramShapes(config));
  const attrs = dims(config) as unknown as tf.NamedAttrMap;
  if (!recording()) {
    return tf
      .engine()
      .runKernel(TRAIN_FORWARD_KERNEL, { ...params, ...masks, ids: tokens }, { ...attrs, keep: false }) as tf.Tensor3D;
  }
  let tape: tf.Tensor | undefined;
  const maskNames = Object.keys(masks);
  const f = tf.customGrad((...args: Array<tf.Tensor | tf.GradSaveFunc>) => {
    const save = args[names.length] as tf.GradSaveFunc;
    const [logits, kept] = tf
      .engine()
      .runKernel(TRAIN_FORWARD_KERNEL, { ...params, ...masks, ids: tokens }, { ...attrs, keep: true }) as tf.Tensor[];
    tape = tf.keep(kept!);
    // The ids and masks too: the caller's tidy may dispose them before the backward runs.
    save([tokens, ...maskNames.map((n) => masks[n]!)]);
    return {
      value: logits!,
      gradFunc: (dy: tf.Tensor, [ids, ...rest]: tf.Tensor[]) => {
        const named = Object.fromEntries(maskNames.map((n, i) => [n, rest[i]!]));
        return tf
          .engine()
          .runKernel(
            TRAIN_BACKWARD_KERNEL,
            { ...params, ...named, ids: ids!, dy, tape: rest[maskNames.length]! },
            attrs,
          ) as tf.Tensor[];
      },
    };
  });
  const logits = f(...names.map((n) => params[n]!)) as tf.Tensor3D;
  handOver(logits, tape!);
  return logits;
}

/** The unfused path's dropout masks, drawn in its order: after the embeddings, then per layer after attention and after the MLP. */
function makeMasks(config: ModelConfig, rows: number, seed: number): Record<string, tf.Tensor> {
  const shape = [rows, config.dModel];
  const masks: Record<string, tf.Tensor> = { 'mask.embed': dropoutMask(shape, config.dropout, seed) };
  for (let l = 0; l < config.layers; l++) {
    masks[`mask.h${l}.attn`] = dropoutMask(shape, config.dropout, seed + 1 + 2 * l);
    masks[`mask.h${l}.mlp`] = dropoutMask(shape, config.dropout, seed + 2 + 2 * l);
  }
  return masks;
}

function register(): void {
  if (tf.getKernel(TRAIN_FORWARD_KERNEL, 'wasm')) return;
  tf.registerKernel({
    kernelName: TRAIN_FORWARD_KERNEL,
    backendName: 'wasm',
    kernelFunc: forwardKernel as unknown as tf.KernelFunc,
  });
  tf.registerKernel({
    kernelName: TRAIN_BACKWARD_KERNEL,
    backendName: 'wasm',
    kernelFunc: backwardKernel as unknown as tf.KernelFunc,
  });
}

/** The tape's layout for a batch: per layer the activations its backward reads, then the final layer norm's. */
function tapeLayout(
  config: ModelConfig,
  B: number,
  T: number,
): { layers: LayerTape[]; final: { y: number; xhat: number; r: number }; floats: number } {
  const { dModel: D, heads: H, layers } = config;
  const N = B * T;
  let at = 0;
  const take = (floats: number) => ((at += Math.ceil(floats / 4) * 4), at - Math.ceil(floats / 4) * 4);
  const layerTapes = Array.from({ length: layers }, () => ({
    y1: take(N * D),
    xhat1: take(N * D),
    r1: take(N),
    qkv: take(N * 3 * D),
    probs: take(T * B * H * T),
    merged: take(N * D),
    y2: take(N * D),
    xhat2: take(N * D),
    r2: take(N),
    h: take(N * 4 * D),
    s: take(N * 4 * D),
    a: take(N * 4 * D),
  }));
  const final = { y: take(N * D), xhat: take(N * D), r: take(N) };
  return { layers: layerTapes, final, floats: at };
}

/** Moves every offset of a tape layout by `base` bytes (offsets in floats). */
function placed<T extends object>(parts: T, base: number): T {
  return Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, base + 4 * (v as number)])) as T;
}

function masksAt(m: FusedModule, inputs: Record<string, tf.TensorInfo>, layers: number): Masks | undefined {
  if (!inputs['mask.embed']) return undefined;
  const at = (name: string) => m.offset(inputs[name]!);
  return {
    embed: at('mask.embed'),
    attention: Array.from({ length: layers }, (_, l) => at(`mask.h${l}.attn`)),
    mlp: Array.from({ length: layers }, (_, l) => at(`mask.h${l}.mlp`)),
  };
}

function forwardKernel({
  inputs,
  backend,
  attrs,
}: KernelArgs<Dims & { keep: boolean }>): tf.TensorInfo[] | tf.TensorInfo {
  const m = moduleOf(backend)!;
  const config: ModelConfig = { ...attrs, dropout: 0 };
  const ids = inputs.ids!;
  const [B, T] = ids.shape as [number, number];
  const shape: PassShape = { config, B, T, start: 0, cap: capOf(T) };
  const logits = backend.makeOutput([B, T, config.vocabSize], 'float32');
  const layout = attrs.keep ? tapeLayout(config, B, T) : undefined;
  const tape = layout ? backend.makeOutput([layout.floats], 'float32') : undefined;
  const at = m.scratch({
    ...passScratch(shape),
    cache: config.layers * layerCacheFloats(shape),
    logits: B * T * config.vocabSize,
  });
  const base = tape ? m.offset(tape) : 0;
  const buf: PassBuffers = {
    ids: m.offset(ids),
    cache: at.cache!,
    logits: at.logits!,
    tape: layout && { layers: layout.layers.map((l) => placed(l, base)), final: placed(layout.final, base) },
    masks: masksAt(m, inputs, config.layers),
  };
  forwardPass(m, (name) => m.offset(inputs[name]!), shape, buf, at);
  m.k.toBatchMajor(at.logits!, m.offset(logits), T, B, config.vocabSize);
  return tape ? [logits, tape] : logits;
}

function backwardKernel({ inputs, backend, attrs }: KernelArgs<Dims>): tf.TensorInfo[] {
  const m = moduleOf(backend)!;
  const config: ModelConfig = { ...attrs, dropout: 0 };
  const ids = inputs.ids!;
  const [B, T] = ids.shape as [number, number];
  const shapes = paramShapes(config);
  const grads = Object.fromEntries(
    Object.entries(shapes).map(([name, shape]) => [name, backend.makeOutput(shape, 'float32')]),
  );
  const layout = tapeLayout(config, B, T);
  const base = m.offset(inputs.tape!);
  const ctx: BackwardContext = {
    m,
    config,
    B,
    T,
    w: (name) => m.offset(inputs[name]!),
    g: (name) => m.offset(grads[name]!),
    ids: m.offset(ids),
    layers: layout.layers.map((l) => placed(l, base)),
    final: placed(layout.final, base),
    masks: masksAt(m, inputs, config.layers),
    at: m.scratch(backwardScratch(config, B, T)),
  };
  backwardPass(ctx, m.offset(inputs.dy!));
  return Object.keys(shapes).map((name) => grads[name]!);
}

interface BackwardContext {
  m: FusedModule;
  config: ModelConfig;
  B: number;
  T: number;
  w: (name: string) => number;
  g: (name: string) => number;
  ids: number;
  layers: LayerTape[];
  final: { y: number; xhat: number; r: number };
  masks: Masks | undefined;
  at: Record<string, number>;
}

function backwardScratch(c: ModelConfig, B: number, T: number): Record<string, number> {
  const D = c.dModel;
  const N = B * T;
  return {
    dlogits: N * c.vocabSize,
    dx: N * D,
    dy: N * D,
    dmid: N * D,
    dY: N * D,
    big: N * 4 * D,
    dqkv: N * 3 * D,
    vT: B * D * capOf(T),
    ds: T * B * c.heads * T,
    wT: Math.max(4 * D * D, D * c.vocabSize),
  };
}

/** dlogits [B, T, V] → every parameter's gradient, last layer first. */
function backwardPass(ctx: BackwardContext, dlogitsBatchMajor: number): void {
  const { m, config, B, T, at } = ctx;
  const { dModel: D, vocabSize: V } = config;
  const N = B * T;
  transposeBatchTime(m, dlogitsBatchMajor, at.dlogits!, B, T, V);
  linearBackward(ctx, ctx.final.y, at.dlogits!, 'head', D, V, at.dy!, false);
  m.k.columnSums(at.dy!, ctx.final.xhat, ctx.g('lnf.g'), N, D);
  m.k.columnSums(at.dy!, 0, ctx.g('lnf.b'), N, D);
  m.k.layerNormBackward(at.dy!, ctx.final.xhat, ctx.final.r, ctx.w('lnf.g'), at.dx!, N, D, 0);
  for (let l = config.layers - 1; l >= 0; l--) layerBackward(ctx, l);
  if (ctx.masks) m.k.mul(at.dx!, ctx.masks.embed, at.dx!, N * D);
  m.k.embedBackward(ctx.ids, at.dx!, ctx.g('wte'), ctx.g('wpe'), B, T, V, D, config.context, 0);
}

/** For y = x @ w + b, from dy: dw = xᵀ @ dy, db = Σ rows of dy, and dx = dy @ wᵀ into `dx` (added to it when accumulate). */
function linearBackward(
  ctx: BackwardContext,
  x: number,
  dy: number,
  name: string,
  K: number,
  N: number,
  dx: number,
  accumulate: boolean,
): void {
  const { m, at } = ctx;
  const M = ctx.B * ctx.T;
  m.k.matmulTN(x, dy, ctx.g(`${name}.w`), M, K, N);
  m.k.columnSums(dy, 0, ctx.g(`${name}.b`), M, N);
  m.k.transpose(ctx.w(`${name}.w`), at.wT!, K, N);
  m.k.matmul(dy, at.wT!, 0, dx, M, N, K, accumulate ? 1 : 0);
}

function layerBackward(ctx: BackwardContext, l: number): void {
  const { m, config, B, T, at } = ctx;
  const { dModel: D, heads: H } = config;
  const hd = D / H;
  const N = B * T;
  const tape = ctx.layers[l]!;
  const h = `h${l}`;
  // MLP: x_out = x_mid + drop(mlp(ln2(x_mid))); at.dx holds d x_out.
  const dmlp = ctx.masks ? (m.k.mul(at.dx!, ctx.masks.mlp[l]!, at.dy!, N * D), at.dy!) : at.dx!;
  m.k.matmulTN(tape.a, dmlp, ctx.g(`${h}.mlp.proj.w`), N, 4 * D, D);
  m.k.columnSums(dmlp, 0, ctx.g(`${h}.mlp.proj.b`), N, D);
  m.k.transpose(ctx.w(`${h}.mlp.proj.w`), at.wT!, 4 * D, D);
  m.k.matmul(dmlp, at.wT!, 0, at.big!, N, D, 4 * D, 0);
  m.k.geluBackward(at.big!, tape.h, tape.s, at.big!, N * 4 * D, 6 * GELU_C * GELU_A, 2 * GELU_C);
  linearBackward(ctx, tape.y2, at.big!, `${h}.mlp.fc`, D, 4 * D, at.dmid!, false);
  lnBackward(ctx, `${h}.ln2`, at.dmid!, tape.xhat2, tape.r2, at.dx!); // at.dx: d x_mid
  // Attention: x_mid = x_in + drop(attention(ln1(x_in))).
  const datt = ctx.masks ? (m.k.mul(at.dx!, ctx.masks.attention[l]!, at.dy!, N * D), at.dy!) : at.dx!;
  m.k.matmulTN(tape.merged, datt, ctx.g(`${h}.attn.proj.w`), N, D, D);
  m.k.columnSums(datt, 0, ctx.g(`${h}.attn.proj.b`), N, D);
  m.k.transpose(ctx.w(`${h}.attn.proj.w`), at.wT!, D, D);
  m.k.matmul(datt, at.wT!, 0, at.dY!, N, D, D, 0);
  m.k.headsByPosition(tape.qkv, 2 * D, at.vT!, T, B, H, hd, capOf(T));
  m.k.attentionBackward(
    at.dY!,
    tape.qkv,
    at.vT!,
    tape.probs,
    at.ds!,
    at.dqkv!,
    T,
    B,
    H,
    hd,
    capOf(T),
    1 / Math.sqrt(hd),
  );
  linearBackward(ctx, tape.y1, at.dqkv!, `${h}.attn.qkv`, D, 3 * D, at.dmid!, false);
  lnBackward(ctx, `${h}.ln1`, at.dmid!, tape.xhat1, tape.r1, at.dx!); // at.dx: d x_in
}

/** Layer norm's backward from dy: its gain's and bias's gradients, and dx added into `dx` (the residual's gradient). */
function lnBackward(ctx: BackwardContext, name: string, dy: number, xhat: number, r: number, dx: number): void {
  const { m } = ctx;
  const N = ctx.B * ctx.T;
  const D = ctx.config.dModel;
  m.k.columnSums(dy, xhat, ctx.g(`${name}.g`), N, D);
  m.k.columnSums(dy, 0, ctx.g(`${name}.b`), N, D);
  m.k.layerNormBackward(dy, xhat, r, ctx.w(`${name}.g`), dx, N, D, 1);
}

/** [B, T, V] → [T·B, V]. */
function transposeBatchTime(m: FusedModule, x: number, out: number, B: number, T: number, V: number): void {
  // toBatchMajor maps time-major rows to batch-major ones; the inverse is the same copy with B and T swapped.
  m.k.toBatchMajor(x, out, B, T, V);
}
