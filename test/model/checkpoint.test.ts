import * as tf from '@tensorflow/tfjs';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCheckpoint, saveCheckpoint } from '../../src/node/checkpoint-fs';
import { CheckpointError, MANIFEST_FILE, WEIGHTS_FILE } from '../../src/model/checkpoint';
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

describe('a checkpoint', () => {
  it('loads back bit-exact, with its config and card', async () => {
    const { dir, model } = await savedTiny();
    const { model: back, manifest } = loadCheckpoint(dir);
    expect(manifest.model).toEqual(TINY);
    expect(manifest.card.seed).toBe(11);
    for (const [name, v] of Object.entries(model.params)) {
      expect(Buffer.from((await back.params[name]!.data()).buffer)).toEqual(Buffer.from((await v.data()).buffer));
    }
    model.dispose();
    back.dispose();
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
    bin.writeFloatLE(NaN, 8);
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
