// The agent recipe's command-line overrides, shared by train-agent and sweep-recipe: the
// parseArgs option specs and one function that lays them over a world's recipe (AGENT_RECIPE's by default).
import { AGENT_RECIPE, type AgentRecipe, type WorksheetFormat } from '../../src/config';
import { EPISODES, type EpisodeKind } from '../../src/env/episode';
import { intOption, numberOption, oneOf } from '../../src/node/args';

const str = { type: 'string' } as const;

export const RECIPE_OPTIONS = {
  'pretrain-steps': str,
  format: str,
  'sft-steps': str,
  'sft-lr': str,
  'weight-decay': str,
  'worksheet-rows': str,
  dropout: str,
  'select-every': str,
  'one-call-demos': str,
};

/** --episode one-call|two-calls: the world an agent is made for (default: one call, the plate's). */
export const episodeOption = (value: string | undefined): EpisodeKind => oneOf('episode', value, EPISODES, 'one-call');

export type RecipeArgs = Partial<Record<keyof typeof RECIPE_OPTIONS, string>>;

/** AGENT_RECIPE with the given overrides; exits with a one-line error on a bad value. */
export function recipeFrom(a: RecipeArgs, seed: number, r: AgentRecipe = AGENT_RECIPE, sftSeed = seed): AgentRecipe {
  return {
    ...(r.episode !== undefined && { episode: r.episode }),
    seed,
    sftSeed,
    model: { ...r.model, dropout: numberOption('dropout', a.dropout, r.model.dropout) },
    pretrain: {
      ...r.pretrain,
      steps: intOption('pretrain-steps', a['pretrain-steps'], r.pretrain.steps),
      format: oneOf<WorksheetFormat>('format', a.format, ['plain', 'restate'], r.pretrain.format),
    },
    sft: {
      ...r.sft,
      steps: intOption('sft-steps', a['sft-steps'], r.sft.steps),
      lr: numberOption('sft-lr', a['sft-lr'], r.sft.lr),
      weightDecay: numberOption('weight-decay', a['weight-decay'], r.sft.weightDecay),
      worksheetRows: intOption('worksheet-rows', a['worksheet-rows'], r.sft.worksheetRows),
      selectEvery: intOption('select-every', a['select-every'], r.sft.selectEvery),
      ...(r.episode === 'two-calls' && {
        oneCallDemonstrations: intOption('one-call-demos', a['one-call-demos'], r.sft.oneCallDemonstrations ?? 0),
      }),
    },
  };
}
