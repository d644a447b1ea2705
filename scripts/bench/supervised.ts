// Milliseconds per supervised optimiser step, as the agent recipe runs them: pre-training from
// fresh weights (32 worksheet rows of 32 characters), then fine-tuning (30 demonstrations and 8
// worksheet rows). Medians over the steps, leaving out the first (Adam creates its slots) and
// the last (it also measures the stage's score).
import { AGENT_RECIPE } from '../../src/config';
import { SupervisedStage, type SupervisedStageName } from '../../src/agent/stage';
import { initialModel } from '../../src/agent/train';
import type { CharModel } from '../../src/model/gpt';
import { median } from './stats';

export interface SupervisedBench {
  steps: number;
  pretrainMs: number;
  sftMs: number;
}

async function stepMedian(model: CharModel, stage: SupervisedStageName, steps: number): Promise<number> {
  const recipe = { ...AGENT_RECIPE, pretrain: { ...AGENT_RECIPE.pretrain, steps }, sft: { ...AGENT_RECIPE.sft, steps } };
  const runner = new SupervisedStage({ model, recipe, stage, seed: recipe.seed, evalEvery: 0 });
  const ms: number[] = [];
  try {
    while (!runner.finished) ms.push((await runner.next()).ms);
  } finally {
    runner.dispose();
  }
  return median(ms.slice(1, -1));
}

export async function benchSupervised(steps: number): Promise<SupervisedBench> {
  const model = initialModel(AGENT_RECIPE);
  try {
    const pretrainMs = await stepMedian(model, 'pretrain', steps);
    const sftMs = await stepMedian(model, 'sft', steps);
    return { steps, pretrainMs, sftMs };
  } finally {
    model.dispose();
  }
}
