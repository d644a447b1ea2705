import * as tf from '@tensorflow/tfjs';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCheckpoint, saveCheckpoint } from '../../src/node/checkpoint-fs';
import {
  CheckpointError,
  encodeCheckpoint,
  MANIFEST_FILE,
  roundToStored,
  WEIGHTS_FILE,
} from '../../src/model/checkpoint';
import { float16Bits, float16Value } from '../../src/model/float16';
import { CharModel } from '../../src/model/gpt';
import { TINY, useWasm } from '../tf';

beforeAll(useWasm);

async function savedTiny(): Promise<{ dir: string; model: CharModel }> {
  const dir = mkdtempSync(join(tmpdir(), 'ckpt-'));
  const model = CharModel.create(TINY, 11);
  await saveCheckpoint(dir, model, { kind: 'agent', seed: 11 });
  return { dir, model };
}

const errorOf = (fn: () => unknown): CheckpointError => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CheckpointError);
    return e as CheckpointError;
  }
  throw new Error('expected a CheckpointError');
};

/** A model's weights, by name, as plain arrays. */
async function valuesOf(model: CharModel): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  for (const [name, v] of Object.entries(model.params)) out[name] = [...(await v.data())];
  return out;
}

const rounded = (xs: number[]) => xs.map((x) => float16Value(float16Bits(x)));

describe('a checkpoint', () => {
  it('stores float16, 2 bytes a weight, and loads back each weight rounded to its nearest float16, with its config and card', async () => {
    const { dir, model } = await savedTiny();
    const { model: back, manifest } = loadCheckpoint(dir);
    expect(manifest.model).toEqual(TINY);
    expect(manifest.card.seed).toBe(11);
    expect(new Set(manifest.weights.map((w) => w.dtype))).toEqual(new Set(['float16']));
    const n = Object.values(model.params).reduce((k, v) => k + v.size, 0);
    expect(readFileSync(join(dir, WEIGHTS_FILE)).length).toBe(2 * n);
    const [original, loaded] = [await valuesOf(model), await valuesOf(back)];
    for (const name of Object.keys(original)) expect(loaded[name], name).toEqual(rounded(original[name]!));
    expect(loaded).not.toEqual(original); // the std-0.02 init is not float16: rounding moved it
    model.dispose();
    back.dispose();
  });

  it('rounded in memory holds what its file gives back, so saving it again writes the same bytes', async () => {
    const { dir, model } = await savedTiny();
    await roundToStored(model);
    const { model: back } = loadCheckpoint(dir);
    expect(await valuesOf(model)).toEqual(await valuesOf(back));
    const again = await encodeCheckpoint(back, { kind: 'agent' });
    expect(Buffer.from(again.weights).equals(readFileSync(join(dir, WEIGHTS_FILE)))).toBe(true);
    model.dispose();
    back.dispose();
  });

  it('of float32 weights, as the format held before, still loads bit-exact', async () => {
    const { dir, model } = await savedTiny();
    const m = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8'));
    for (const w of m.weights) w.dtype = 'float32';
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(m));
    const original = await valuesOf(model);
    const floats = new Float32Array(m.weights.flatMap((w: { name: string }) => original[w.name]!));
    writeFileSync(join(dir, WEIGHTS_FILE), new Uint8Array(floats.buffer));
    const { model: back } = loadCheckpoint(dir);
    expect(await valuesOf(back)).toEqual(original);
    model.dispose();
    back.dispose();
  });

  it('is refused with a dtype it does not know or two dtypes at once, naming the weights', async () => {
    const { dir } = await savedTiny();
    const m = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8'));
    m.weights[1].dtype = 'float64';
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(m));
    expect(errorOf(() => loadCheckpoint(dir)).problem).toBe(
      `weight "${m.weights[1].name}" has dtype float64, expected float16 or float32`,
    );
    m.weights[1].dtype = 'float32';
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(m));
    expect(errorOf(() => loadCheckpoint(dir)).problem).toBe(
      `weight "${m.weights[1].name}" has dtype float32 and "${m.weights[0].name}" float16: a checkpoint's weights share one dtype`,
    );
  });

  it('cannot be written from a weight float16 cannot hold, and says which', async () => {
    const model = CharModel.create(TINY, 11);
    model.params['lnf.g']!.assign(tf.fill([TINY.dModel], 70000));
    await expect(encodeCheckpoint(model, { kind: 'agent' })).rejects.toThrow(
      'checkpoint: weight "lnf.g" holds 70000, which float16 cannot hold',
    );
    model.dispose();
  });

  it('that is missing names the missing file', () => {
    const e = errorOf(() => loadCheckpoint(join(tmpdir(), 'no-such-checkpoint')));
    expect(e.file).toMatch(/no-such-checkpoint\/manifest\.json$/);
    expect(e.problem).toBe('is missing');
  });

  it('with bad JSON says the manifest is not valid JSON', async () => {
    const { dir } = await savedTiny();
    writeFileSync(join(dir, MANIFEST_FILE), '{"format": ');
    expect(errorOf(() => loadCheckpoint(dir)).message).toMatch(/manifest\.json: is not valid JSON/);
  });

  it('whose vocabulary size differs from the vocabulary is refused, naming the file', async () => {
    const { dir } = await savedTiny();
    const m = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8'));
    m.model.vocabSize = 17;
    for (const w of m.weights) if (w.name === 'wte') w.shape = [17, 16];
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(m));
    expect(errorOf(() => loadCheckpoint(dir)).message).toMatch(
      /manifest\.json: model\.vocabSize is 17, but the vocabulary ".*" has 16 characters/,
    );
  });

  it('whose weightsFile leaves its folder is refused', async () => {
    const { dir } = await savedTiny();
    const m = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8'));
    for (const bad of ['../agent/weights.bin', 'sub/weights.bin', 'https://elsewhere.example/w.bin', '..', '']) {
      m.weightsFile = bad;
      writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(m));
      expect(errorOf(() => loadCheckpoint(dir)).message, bad).toMatch(
        /is not a plain file name in the checkpoint's folder/,
      );
    }
  });

  it('with a wrong shape names the weight and both shapes', async () => {
    const { dir } = await savedTiny();
    const m = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8'));
    m.weights.find((w: { name: string }) => w.name === 'head.w').shape = [16, 3];
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(m));
    expect(errorOf(() => loadCheckpoint(dir)).message).toMatch(
      /weight "head\.w" has shape \[16,3\], the model config needs \[16,16\]/,
    );
  });

  it('with a truncated binary names the weights file and says it is truncated', async () => {
    const { dir } = await savedTiny();
    const bin = readFileSync(join(dir, WEIGHTS_FILE));
    writeFileSync(join(dir, WEIGHTS_FILE), bin.subarray(0, bin.length - 100));
    const e = errorOf(() => loadCheckpoint(dir));
    expect(e.file).toMatch(/weights\.bin$/);
    expect(e.problem).toMatch(/truncated/);
  });

  it('with a NaN weight is refused', async () => {
    const { dir } = await savedTiny();
    const bin = readFileSync(join(dir, WEIGHTS_FILE));
    bin.writeUInt16LE(0x7e00, 8); // a float16 NaN
    writeFileSync(join(dir, WEIGHTS_FILE), bin);
    expect(errorOf(() => loadCheckpoint(dir)).problem).toMatch(/non-finite/);
  });

  it('leaves no tensors behind when loading fails', async () => {
    const { dir } = await savedTiny();
    writeFileSync(join(dir, WEIGHTS_FILE), Buffer.alloc(10));
    const before = tf.memory().numTensors;
    errorOf(() => loadCheckpoint(dir));
    expect(tf.memory().numTensors).toBe(before);
  });

  describe('whose manifest is wrong in a way that would hang or crash the model', () => {
    /** Loads a saved tiny checkpoint after `edit` changed its parsed manifest; returns the error's problem. */
    async function problemAfter(
      edit: (m: { model: Record<string, unknown>; weights: unknown[] }) => void,
    ): Promise<string> {
      const { dir } = await savedTiny();
      const m = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8'));
      edit(m);
      writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(m));
      return errorOf(() => loadCheckpoint(dir)).problem;
    }

    it('refuses sizes out of bounds, before building anything', async () => {
      expect(await problemAfter((m) => (m.model.layers = 3e6))).toBe(
        'model.layers is 3000000, expected a whole number from 1 to 24',
      );
      expect(await problemAfter((m) => (m.model.heads = 0))).toBe(
        'model.heads is 0, expected a whole number from 1 to 64',
      );
      expect(await problemAfter((m) => (m.model.dModel = 16.5))).toMatch(
        /^model\.dModel is 16\.5, expected a whole number/,
      );
      expect(await problemAfter((m) => (m.model.heads = 3))).toBe('model.dModel (16) does not split into 3 heads');
      expect(await problemAfter((m) => (m.model.dropout = 1))).toMatch(/^model\.dropout is 1, expected a rate/);
    });

    it('names a weight entry that is null or has no list for its shape', async () => {
      expect(await problemAfter((m) => (m.weights[0] = null))).toBe('weights[0] is null, not a weight entry');
      expect(await problemAfter((m) => ((m.weights[1] as { shape: unknown }).shape = 16))).toMatch(
        /^weight "\w+" has shape 16, not a list of whole numbers$/,
      );
    });
  });
});
