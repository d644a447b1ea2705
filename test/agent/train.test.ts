import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_RECIPE, type AgentRecipe } from '../../src/config';
import { SupervisedStage } from '../../src/agent/stage';
import { initialModel, runStage } from '../../src/agent/train';
import { decodeCheckpoint, encodeCheckpoint } from '../../src/model/checkpoint';
import { float16Bits, float16Value } from '../../src/model/float16';
import type { CharModel } from '../../src/model/gpt';
import { TINY, useWasm } from '../tf';

beforeAll(useWasm);

const recipe: AgentRecipe = {
  ...AGENT_RECIPE,
  model: TINY,
  pretrain: { ...AGENT_RECIPE.pretrain, steps: 2, batch: 2 },
  sft: { ...AGENT_RECIPE.sft, steps: 2, worksheetRows: 1 },
};

describe('runStage', () => {
  it('runs every step of a stage when no one listens to the records', async () => {
    const model = initialModel(recipe, 1);
    const before = model.params['wte']!.arraySync();
    const log = await runStage(model, recipe, 'pretrain', { seed: 1 });
    expect(log.steps).toBe(2);
    expect(model.params['wte']!.arraySync()).not.toEqual(before);
    model.dispose();
  });

  it('gives the same weights with or without a record listener', async () => {
    const [quiet, heard] = [initialModel(recipe, 1), initialModel(recipe, 1)];
    await runStage(quiet, recipe, 'sft', { seed: 3 });
    const steps: number[] = [];
    await runStage(heard, recipe, 'sft', { seed: 3, onRecord: (r) => steps.push(r.step) });
    expect(steps).toEqual([0, 1, 2]);
    expect(quiet.params['head.w']!.arraySync()).toEqual(heard.params['head.w']!.arraySync());
    quiet.dispose();
    heard.dispose();
  });
});

/** The weights that a float16 checkpoint would not give back as they are. */
async function notFloat16(model: CharModel): Promise<string[]> {
  const off: string[] = [];
  for (const [name, v] of Object.entries(model.params))
    if ((await v.data()).some((x) => float16Value(float16Bits(x)) !== x)) off.push(name);
  return off;
}

const weightsOf = (model: CharModel) => Object.values(model.params).map((v) => v.arraySync());

describe('a supervised stage', () => {
  it('ends with weights a checkpoint holds exactly (float16), not before its last step', async () => {
    const model = initialModel(recipe, 1);
    const stage = new SupervisedStage({ model, recipe, stage: 'pretrain', seed: 1, evalEvery: 0 });
    await stage.initial();
    await stage.next();
    expect(await notFloat16(model)).not.toEqual([]); // float32 while it trains
    await stage.next();
    expect(await notFloat16(model)).toEqual([]);
    await stage.finish();
    model.dispose();
  });

  it('hands the next stage the same bits in memory as through a checkpoint, so fine-tuning either gives one agent', async () => {
    const inMemory = initialModel(recipe, 1);
    await runStage(inMemory, recipe, 'pretrain', { seed: 1 });
    const { manifest, weights } = await encodeCheckpoint(inMemory, { kind: 'pretrained' });
    const fromFile = decodeCheckpoint(manifest, weights);
    expect(weightsOf(fromFile)).toEqual(weightsOf(inMemory));
    await runStage(inMemory, recipe, 'sft', { seed: 3 });
    await runStage(fromFile, recipe, 'sft', { seed: 3 });
    expect(weightsOf(fromFile)).toEqual(weightsOf(inMemory));
    inMemory.dispose();
    fromFile.dispose();
  });

  it('stops at a step whose loss is not finite, naming the stage, with the weights left as they were', async () => {
    const model = initialModel(recipe, 1);
    model.params['lnf.g']!.assign(tf.fill([TINY.dModel], 3e38)); // the logits overflow: the loss is NaN
    const before = model.params['wte']!.arraySync();
    await expect(runStage(model, recipe, 'sft', { seed: 1 })).rejects.toThrow(
      /^the loss became NaN at fine-tuning step 1; the run stopped before applying that update$/,
    );
    expect(model.params['wte']!.arraySync()).toEqual(before);
    model.dispose();
  });
});
