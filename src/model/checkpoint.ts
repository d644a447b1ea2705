/**
 * Checkpoints: a folder with `manifest.json` (model config, weight names/shapes/dtypes and a
 * card describing how the weights were made) and one binary file, the weights one after another
 * in the manifest's order (little-endian, as typed arrays lay them out on every platform the
 * plate runs on). Weights are written as float16, half float32's bytes, and held as float32
 * tensors in memory; a file of float32 weights (what the format held before, and still may hold)
 * is read as it is. Decoding validates everything and throws a CheckpointError that names the
 * file and what is wrong. Reading the files is the caller's job (fs in Node, fetch in the
 * worker), so this module runs anywhere.
 *
 * A stage hands its weights to the next through a checkpoint, in memory or on disk, and every
 * supervised stage ends by rounding its weights to float16 (`roundToStored`): a run that goes on
 * with the model in memory starts its next stage from the very bits a file would give back.
 */
import * as tf from '@tensorflow/tfjs';
import type { ModelConfig } from '../config';
import { fromFloat16, isFiniteFloat16, toFloat16 } from './float16';
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

/** A weight's dtype in the file: float16 is written; float32 is still read. */
export type StoredDtype = 'float16' | 'float32';

/** Bytes per value of each dtype a weights file may hold. */
export const BYTES_PER_VALUE: Record<StoredDtype, number> = { float16: 2, float32: 4 };

const WRITTEN_DTYPE: StoredDtype = 'float16';

interface WeightSpec {
  name: string;
  shape: number[];
  dtype: StoredDtype;
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

/**
 * The model's weights as float16, each rounded to nearest (ties to even). Throws, naming the
 * weight, if one is not finite or lies beyond float16's ±65504 (a diverged model: no checkpoint).
 */
export async function encodeCheckpoint(
  model: CharModel,
  card: CheckpointCard,
): Promise<{ manifest: Manifest; weights: ArrayBuffer }> {
  const named = Object.entries(model.params);
  const values = await Promise.all(named.map(([, v]) => v.data<'float32'>()));
  const out = new Uint16Array(values.reduce((n, v) => n + v.length, 0));
  let offset = 0;
  named.forEach(([name], i) => {
    out.set(float16Of(name, values[i]!), offset);
    offset += values[i]!.length;
  });
  const manifest: Manifest = {
    format: CHECKPOINT_FORMAT,
    model: model.config,
    weightsFile: WEIGHTS_FILE,
    weights: named.map(([name, v]) => ({ name, shape: [...v.shape], dtype: WRITTEN_DTYPE })),
    card,
  };
  return { manifest, weights: out.buffer };
}

/**
 * Rounds the model's weights in place to the float16 values a checkpoint stores, so a stage
 * continued in memory (npm run train:agent) and one handed its weights through a file (the
 * page's pipeline) start from the same bits.
 */
export async function roundToStored(model: CharModel): Promise<void> {
  for (const [name, v] of Object.entries(model.params)) {
    const t = tf.tensor(fromFloat16(float16Of(name, await v.data<'float32'>())), v.shape, 'float32');
    v.assign(t);
    t.dispose();
  }
}

/** A weight's float16 bits; throws, naming the weight, if a value is not finite or lies beyond float16's ±65504. */
function float16Of(name: string, values: Float32Array): Uint16Array {
  const { bits, unrepresentable: i } = toFloat16(values);
  if (i !== null) throw new Error(`checkpoint: weight "${name}" holds ${values[i]}, which float16 cannot hold`);
  return bits;
}

/** The dtype every weight of a manifest shares (checkManifest makes sure there is one). */
export const storedDtype = (manifest: Manifest): StoredDtype => manifest.weights[0]?.dtype ?? WRITTEN_DTYPE;

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
    if (!Object.hasOwn(BYTES_PER_VALUE, spec.dtype))
      throw new CheckpointError(file, `weight "${name}" has dtype ${spec.dtype}, expected float16 or float32`);
    if (spec.shape.join(',') !== shape.join(',')) {
      throw new CheckpointError(file, `weight "${name}" has shape [${spec.shape}], the model config needs [${shape}]`);
    }
  }
  for (const name of names)
    if (!(name in expected)) throw new CheckpointError(file, `lists an unknown weight "${name}"`);
  // One dtype per file: the worker regroups a file's bytes by the width of its values.
  const [first, other] = [man.weights[0]!, man.weights.find((w) => w.dtype !== man.weights![0]!.dtype)];
  if (other) {
    throw new CheckpointError(
      file,
      `weight "${other.name}" has dtype ${other.dtype} and "${first.name}" ${first.dtype}: a checkpoint's weights share one dtype`,
    );
  }
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

/** Builds a model from a validated manifest and the binary's bytes: float32 tensors, whatever the file's dtype. */
export function decodeCheckpoint(manifest: Manifest, weights: ArrayBuffer, where = ''): CharModel {
  checkWeights(manifest, weights, where);
  const params: Params = {};
  eachWeight(manifest, weights, (w, values) => {
    const t = tf.tensor(w.dtype === 'float16' ? fromFloat16(values as Uint16Array) : values, w.shape, 'float32');
    params[w.name] = tf.variable(t, true); // unnamed: tfjs names must be unique across models
    t.dispose();
  });
  return new CharModel(manifest.model, params);
}

/** Each weight's values as a view of the file: Uint16Array bits for float16, Float32Array for float32. */
function eachWeight(
  manifest: Manifest,
  weights: ArrayBuffer,
  f: (w: WeightSpec, values: Uint16Array | Float32Array) => void,
): void {
  let offset = 0;
  for (const w of manifest.weights) {
    const size = w.shape.reduce((a, b) => a * b, 1);
    f(w, w.dtype === 'float16' ? new Uint16Array(weights, offset, size) : new Float32Array(weights, offset, size));
    offset += size * BYTES_PER_VALUE[w.dtype];
  }
}

/** Throws a CheckpointError unless the binary holds exactly the manifest's weights, all finite. */
export function checkWeights(
  manifest: Manifest,
  weights: ArrayBuffer,
  where = '',
  file = where + manifest.weightsFile,
): void {
  const needed = manifest.weights.reduce(
    (n, w) => n + BYTES_PER_VALUE[w.dtype] * w.shape.reduce((a, b) => a * b, 1),
    0,
  );
  if (weights.byteLength !== needed) {
    throw new CheckpointError(
      file,
      `has ${weights.byteLength} bytes, the manifest needs ${needed} (${weights.byteLength < needed ? 'truncated' : 'too long'})`,
    );
  }
  // Check the raw values here, before any backend sees them (dataSync() is unreliable on WebGPU).
  eachWeight(manifest, weights, (w, values) => {
    const finite = values instanceof Uint16Array ? isFiniteFloat16 : Number.isFinite;
    for (let i = 0; i < values.length; i++) {
      if (!finite(values[i]!)) throw new CheckpointError(file, `weight "${w.name}" holds a non-finite value`);
    }
  });
}
