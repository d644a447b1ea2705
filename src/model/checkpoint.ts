/**
 * Checkpoints: a folder with `manifest.json` (model config, weight names/shapes/dtypes and a
 * card describing how the weights were made) and one binary file packed by tfjs's
 * `tf.io.encodeWeights`. Decoding validates everything and throws a CheckpointError that names
 * the file and what is wrong. Reading the files is the caller's job (fs in Node, fetch in the
 * worker), so this module runs anywhere.
 */
import * as tf from '@tensorflow/tfjs';
import type { ModelConfig } from '../config';
import { CharModel } from './gpt';
import { paramShapes, type Params } from './params';
import { VOCAB } from './vocab';

export const MANIFEST_FILE = 'manifest.json';
/** @internal A test seam: exported for the test that truncates a weights file. */
export const WEIGHTS_FILE = 'weights.bin';
const CHECKPOINT_FORMAT = 'multi-turn-rl-checkpoint/1';

/** How the weights were made; free-form beyond these fields. */
export interface CheckpointCard {
  kind: 'pretrained' | 'agent' | string;
  seed?: number;
  [key: string]: unknown;
}

interface WeightSpec {
  name: string;
  shape: number[];
  dtype: 'float32';
}

export interface Manifest {
  format: typeof CHECKPOINT_FORMAT;
  model: ModelConfig;
  weightsFile: string;
  weights: WeightSpec[];
  card: CheckpointCard;
}

/** A checkpoint's two files in memory; `where` (a folder or URL ending in '/', or '') prefixes file names in errors. */
export interface CheckpointFiles {
  manifest: Manifest;
  weights: ArrayBuffer;
  where: string;
}

/** FNV-1a over a weights file's bytes, as 8 hex digits: two checkpoints with the same digest hold the same bits. */
export function weightsDigest(weights: ArrayBuffer): string {
  const bytes = new Uint8Array(weights);
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

export class CheckpointError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = 'CheckpointError';
  }
}

export async function encodeCheckpoint(
  model: CharModel,
  card: CheckpointCard,
): Promise<{ manifest: Manifest; weights: ArrayBuffer }> {
  const named = Object.entries(model.params).map(([name, tensor]) => ({ name, tensor }));
  const { data, specs } = await tf.io.encodeWeights(named);
  const manifest: Manifest = {
    format: CHECKPOINT_FORMAT,
    model: model.config,
    weightsFile: WEIGHTS_FILE,
    weights: specs.map((s) => ({ name: s.name, shape: s.shape, dtype: 'float32' })),
    card,
  };
  return { manifest, weights: data };
}

/**
 * What a manifest's model may be: whole numbers in these ranges (the dropout a rate in [0, 1)).
 * Far beyond the shipped model (2 layers, width 64, 4 heads, context 32), and small enough that
 * a wrong manifest cannot make the page allocate gigabytes or build layers for minutes.
 */
const MODEL_BOUNDS: Record<Exclude<keyof ModelConfig, 'dropout'>, [number, number]> = {
  vocabSize: [1, 1024],
  context: [8, 512],
  layers: [1, 24],
  dModel: [1, 2048],
  heads: [1, 64],
};

/** Parses and validates manifest.json text. `where` prefixes the file name in errors (a folder or URL). */
export function parseManifest(text: string, where = ''): Manifest {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch (e) {
    throw new CheckpointError(where + MANIFEST_FILE, `is not valid JSON (${(e as Error).message})`);
  }
  return checkManifest(m, where + MANIFEST_FILE);
}

/** Validates a parsed manifest; `file` names it in errors. */
export function checkManifest(m: unknown, file: string): Manifest {
  if (typeof m !== 'object' || m === null) throw new CheckpointError(file, 'is not a JSON object');
  const man = m as Partial<Manifest>;
  if (man.format !== CHECKPOINT_FORMAT)
    throw new CheckpointError(file, `has format ${JSON.stringify(man.format)}, expected "${CHECKPOINT_FORMAT}"`);
  if (typeof man.model !== 'object' || man.model === null) throw new CheckpointError(file, 'has no "model" config');
  checkModel(man.model, file);
  if (!Array.isArray(man.weights)) throw new CheckpointError(file, 'has no "weights" list');
  man.weights.forEach((w: unknown, i) => checkWeightSpec(w, i, file));
  if (typeof man.weightsFile !== 'string') throw new CheckpointError(file, 'has no "weightsFile"');
  // A plain file name in the same folder: nothing that reaches another folder or host.
  if (!/^[\w.-]+$/.test(man.weightsFile) || /^\.+$/.test(man.weightsFile)) {
    throw new CheckpointError(
      file,
      `weightsFile ${JSON.stringify(man.weightsFile)} is not a plain file name in the checkpoint's folder`,
    );
  }
  if (man.model.vocabSize !== VOCAB.length) {
    throw new CheckpointError(
      file,
      `model.vocabSize is ${man.model.vocabSize}, but the vocabulary "${VOCAB}" has ${VOCAB.length} characters`,
    );
  }
  const expected = paramShapes(man.model);
  const names = new Set(man.weights.map((w) => w.name));
  for (const [name, shape] of Object.entries(expected)) {
    const spec = man.weights.find((w) => w.name === name);
    if (!spec) throw new CheckpointError(file, `lists no weight "${name}"`);
    if (spec.dtype !== 'float32')
      throw new CheckpointError(file, `weight "${name}" has dtype ${spec.dtype}, expected float32`);
    if (spec.shape.join(',') !== shape.join(',')) {
      throw new CheckpointError(file, `weight "${name}" has shape [${spec.shape}], the model config needs [${shape}]`);
    }
  }
  for (const name of names)
    if (!(name in expected)) throw new CheckpointError(file, `lists an unknown weight "${name}"`);
  return man as Manifest;
}

function checkModel(model: Partial<Record<keyof ModelConfig, unknown>>, file: string): void {
  for (const [f, [lo, hi]] of Object.entries(MODEL_BOUNDS)) {
    const v = model[f as keyof ModelConfig];
    if (typeof v !== 'number') throw new CheckpointError(file, `model.${f} is missing or not a number`);
    if (!Number.isInteger(v) || v < lo || v > hi)
      throw new CheckpointError(file, `model.${f} is ${v}, expected a whole number from ${lo} to ${hi}`);
  }
  const { dropout, dModel, heads } = model as ModelConfig;
  if (typeof dropout !== 'number' || !(dropout >= 0 && dropout < 1))
    throw new CheckpointError(file, `model.dropout is ${JSON.stringify(dropout)}, expected a rate from 0 up to 1`);
  if (dModel % heads !== 0)
    throw new CheckpointError(file, `model.dModel (${dModel}) does not split into ${heads} heads`);
}

/** A weight entry: an object with a name, a shape of whole numbers and a dtype. */
function checkWeightSpec(w: unknown, i: number, file: string): void {
  if (typeof w !== 'object' || w === null)
    throw new CheckpointError(file, `weights[${i}] is ${JSON.stringify(w)}, not a weight entry`);
  const { name, shape } = w as Partial<WeightSpec>;
  if (typeof name !== 'string') throw new CheckpointError(file, `weights[${i}] has no name`);
  if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0)) {
    throw new CheckpointError(file, `weight "${name}" has shape ${JSON.stringify(shape)}, not a list of whole numbers`);
  }
}

/** Builds a model from a validated manifest and the binary's bytes. */
export function decodeCheckpoint(manifest: Manifest, weights: ArrayBuffer, where = ''): CharModel {
  checkWeights(manifest, weights, where);
  const tensors = tf.io.decodeWeights(weights, manifest.weights);
  const params: Params = {};
  for (const [name, t] of Object.entries(tensors)) {
    params[name] = tf.variable(t, true);
    t.dispose();
  }
  return new CharModel(manifest.model, params);
}

/** Throws a CheckpointError unless the binary holds exactly the manifest's weights, all finite. */
export function checkWeights(
  manifest: Manifest,
  weights: ArrayBuffer,
  where = '',
  file = where + manifest.weightsFile,
): void {
  const needed = manifest.weights.reduce((n, w) => n + 4 * w.shape.reduce((a, b) => a * b, 1), 0);
  if (weights.byteLength !== needed) {
    throw new CheckpointError(
      file,
      `has ${weights.byteLength} bytes, the manifest needs ${needed} (${weights.byteLength < needed ? 'truncated' : 'too long'})`,
    );
  }
  // Check the raw floats here, before any backend sees them (dataSync() is unreliable on WebGPU).
  const floats = new Float32Array(weights);
  let offset = 0;
  for (const w of manifest.weights) {
    const size = w.shape.reduce((a, b) => a * b, 1);
    for (let i = offset; i < offset + size; i++) {
      if (!Number.isFinite(floats[i]!)) throw new CheckpointError(file, `weight "${w.name}" holds a non-finite value`);
    }
    offset += size;
  }
}
