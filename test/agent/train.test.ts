import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_RECIPE, type AgentRecipe } from '../../src/config';
import { initialModel, runStage } from '../../src/agent/train';
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

describe('a supervised stage', () => {
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
