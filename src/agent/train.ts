/**
 * The agent recipe end to end: fresh weights, pre-training on single-digit worksheets, then
 * fine-tuning on exactly 30 demonstrations of the calculator call. A loop over the stages of
 * stage.ts, as the page's worker runs them one step at a time.
 */
import type { AgentRecipe } from '../config';
import { AGENTS } from '../env/world';
import { CharModel } from '../model/gpt';
import { widenContext } from '../model/widen';
import { stageRng, SupervisedStage, type PhaseLog, type SupervisedRecord, type SupervisedStageName } from './stage';

export type { PhaseLog, SupervisedRecord, SupervisedStageName } from './stage';

/** Fresh weights for a run from random weights: their own stream of the seed. */
export const initialModel = (recipe: AgentRecipe, seed = recipe.seed): CharModel =>
  CharModel.create(recipe.model, stageRng(seed, 'init').seed());

/**
 * The model fine-tuning starts from: the worksheet model itself, or — for an agent that needs a
 * longer context (the three-call agent) — the worksheet model with its position table widened to
 * it, the new rows drawn from the fine-tuning seed's own stream. Consumes `model` when it widens it.
 */
export const fineTuningStart = (model: CharModel, recipe: AgentRecipe, sftSeed: number): CharModel =>
  widenContext(model, AGENTS[recipe.episode ?? 'one-call'].context, stageRng(sftSeed, 'widen').seed());

/** Runs one stage to its end on `model` (which it changes in place). */
export async function runStage(
  model: CharModel,
  recipe: AgentRecipe,
  stage: SupervisedStageName,
  opts: { seed?: number; evalEvery?: number; onRecord?: (r: SupervisedRecord) => void } = {},
): Promise<PhaseLog> {
  const runner = new SupervisedStage({
    model,
    recipe,
    stage,
    seed: opts.seed ?? recipe.seed,
    evalEvery: opts.evalEvery ?? 0,
  });
  try {
    // Not `onRecord?.(await runner.next())`: without a callback that skips the step itself.
    const first = await runner.initial();
    opts.onRecord?.(first);
    while (!runner.finished) {
      const record = await runner.next();
      opts.onRecord?.(record);
    }
    return await runner.finish();
  } finally {
    runner.dispose();
  }
}

export interface AgentRun {
  agent: CharModel;
  pretrainLog: PhaseLog;
  sftLog: PhaseLog;
}

export async function trainAgent(
  recipe: AgentRecipe,
  hooks: {
    evalEvery?: number;
    onRecord?: (r: SupervisedRecord) => void;
    afterPretrain?: (model: CharModel, log: PhaseLog) => Promise<void>;
  } = {},
): Promise<AgentRun> {
  const model = initialModel(recipe);
  const opts = { evalEvery: hooks.evalEvery, onRecord: hooks.onRecord };
  const pretrainLog = await runStage(model, recipe, 'pretrain', opts);
  await hooks.afterPretrain?.(model, pretrainLog);
  const agent = fineTuningStart(model, recipe, recipe.sftSeed);
  const sftLog = await runStage(agent, recipe, 'sft', { ...opts, seed: recipe.sftSeed });
  return { agent, pretrainLog, sftLog };
}
