/**
 * Decoding in one tfjs kernel per model call (the unfused forward runs ~130): tokens [B, T] at
 * positions start.. and the cache of earlier positions → logits [B, T, V] and the cache grown.
 *
 * The cache is one buffer with room for the whole context (per layer keys [C, hd, cap], values
 * [C, cap, hd], C = B·H), and the kernel writes the new positions into it in place: the grown
 * cache it returns is the same data under a second reference, and the caller disposes the old
 * one as before. Positions before `start` never change, so the old cache still means what it
 * did; a second continuation from the same old cache (a branch) finds the buffer already
 * written past its length and gets a copy instead.
 */
import * as tf from '@tensorflow/tfjs';
import type { ModelConfig } from '../../config';
import type { Params } from '../params';
import { forwardPass, layerCacheFloats, passScratch, type PassShape } from './forward';
import { fusedModule, moduleOf, type WasmBackend } from './module';

/** The fused decoder's: every layer's keys and values in one buffer, grown in place (fused/decode.ts). */
export type FusedCache = {
  kind: 'fused';
  buffer: tf.Tensor1D;
  /** Positions it holds. */
  length: number;
};

/** @internal A test seam: exported for the tests that count the kernels a call runs. */
export const DECODE_KERNEL = 'MultiTurnRLDecode';

/** Cache buffers → how many positions they hold; a buffer written further than a call's start is copied first. */
const written = new WeakMap<object, number>();

/** Positions a layer's cache has room for: the context, rounded up to whole vectors. */
const cacheCap = (context: number): number => Math.ceil(context / 4) * 4;

/** Whether the fused decoder can run this call (the WASM backend, a model it supports, a fused cache or none from position 0). */
export function canDecodeFused(config: ModelConfig, start: number, cache: unknown): boolean {
  if (!fusedModule() || config.dModel % 4 !== 0 || (config.dModel / config.heads) % 4 !== 0) return false;
  return cache === undefined ? start === 0 : (cache as FusedCache).kind === 'fused';
}

/** tokens [B, T] int32 → logits [B, T, V] and the grown cache; the caller owns both. */
export function decodeFused(
  config: ModelConfig,
  params: Params,
  tokens: tf.Tensor2D,
  start: number,
  cache: FusedCache | undefined,
): { logits: tf.Tensor3D; cache: FusedCache } {
  registerDecode();
  const inputs: tf.NamedTensorMap = { ...params, ids: tokens };
  if (cache) inputs.cache = cache.buffer;
  const attrs = {
    start,
    vocabSize: config.vocabSize,
    context: config.context,
    layers: config.layers,
    dModel: config.dModel,
    heads: config.heads,
  };
  const [logits, buffer] = tf.engine().runKernel(DECODE_KERNEL, inputs, attrs as unknown as tf.NamedAttrMap) as [
    tf.Tensor3D,
    tf.Tensor1D,
  ];
  return { logits: logits!, cache: { kind: 'fused', buffer: buffer!, length: start + tokens.shape[1] } };
}

function registerDecode(): void {
  if (tf.getKernel(DECODE_KERNEL, 'wasm')) return;
  tf.registerKernel({
    kernelName: DECODE_KERNEL,
    backendName: 'wasm',
    kernelFunc: decodeKernel as unknown as tf.KernelFunc,
  });
}

type Attrs = Pick<ModelConfig, 'vocabSize' | 'context' | 'layers' | 'dModel' | 'heads'> & { start: number };

function decodeKernel({
  inputs,
  backend,
  attrs,
}: {
  inputs: Record<string, tf.TensorInfo>;
  backend: WasmBackend;
  attrs: Attrs;
}): tf.TensorInfo[] {
  const m = moduleOf(backend);
  if (!m) throw new Error(`${DECODE_KERNEL}: the fused module cannot run on this backend`);
  const { start, ...dims } = attrs;
  const config: ModelConfig = { ...dims, dropout: 0 };
  const ids = inputs.ids!;
  const [B, T] = ids.shape as [number, number];
  const shape: PassShape = { config, B, T, start, cap: cacheCap(config.context) };
  if (start + T > config.context)
    throw new Error(`${DECODE_KERNEL}: positions ${start}..${start + T - 1} exceed the context ${config.context}`);
  const cache = grownCache(m.backend, inputs.cache, config.layers * layerCacheFloats(shape), start);
  const logits = backend.makeOutput([B, T, config.vocabSize], 'float32');
  const at = m.scratch({ ...passScratch(shape), logits: T === 1 ? 0 : B * T * config.vocabSize });
  const out = T === 1 ? m.offset(logits) : at.logits!;
  forwardPass(
    m,
    (name) => m.offset(inputs[name]!),
    shape,
    { ids: m.offset(ids), cache: m.offset(cache), logits: out },
    at,
  );
  if (T > 1) m.k.toBatchMajor(out, m.offset(logits), T, B, config.vocabSize);
  written.set(cache.dataId, start + T);
  return [logits, cache];
}

/** The cache to write positions start.. into: the old one's buffer under a new reference, a copy of it (a branch), or a new one. */
function grownCache(
  backend: WasmBackend,
  old: tf.TensorInfo | undefined,
  floats: number,
  start: number,
): tf.TensorInfo {
  if (old && old.shape[0] !== floats)
    throw new Error(`${DECODE_KERNEL}: a cache of ${old.shape[0]} floats for a batch that needs ${floats}`);
  const length = old ? written.get(old.dataId) : undefined;
  if (length !== undefined && length < start)
    throw new Error(`${DECODE_KERNEL}: a cache of ${length} positions for a call from position ${start}`);
  if (old && length === start) {
    backend.incRef(old.dataId);
    return { dataId: old.dataId, shape: old.shape, dtype: 'float32' };
  }
  const fresh = backend.makeOutput([floats], 'float32');
  if (old) {
    const from = backend.dataIdMap.get(old.dataId)!.memoryOffset;
    backend.wasm.HEAPU8.copyWithin(backend.dataIdMap.get(fresh.dataId)!.memoryOffset, from, from + 4 * floats);
  } else if (start !== 0) {
    throw new Error(`${DECODE_KERNEL}: no cache for positions before ${start}`);
  }
  return fresh;
}
