// The agent recipe's command-line overrides, shared by train-agent and sweep-recipe: the
// parseArgs option specs and one function that lays them over a world's recipe (AGENT_RECIPE's by default).
import { AGENT_RECIPE, type AgentRecipe, type WorksheetFormat } from '../../src/config';
import { EPISODES, type AgentName, type EpisodeKind } from '../../src/env/episode';
import { AGENT_NAMES } from '../../src/env/world';
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
  'shorter-demos': str,
};

/** --episode one-call|two-calls|three-calls: a world (default: one call, the plate's). */
export const episodeOption = (value: string | undefined): EpisodeKind => oneOf('episode', value, EPISODES, 'one-call');

/** --episode one-call|three-calls: the agent a recipe makes, by the longest episode it plays (default: the plate's). */
export const agentOption = (value: string | undefined): AgentName => oneOf('episode', value, AGENT_NAMES, 'one-call');

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
      ...(r.episode === 'three-calls' && {
        shorterDemonstrations: intOption('shorter-demos', a['shorter-demos'], r.sft.shorterDemonstrations ?? 0),
      }),
    },
  };
}
