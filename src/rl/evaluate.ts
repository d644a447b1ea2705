/**
 * Held-out evaluation: greedy decoding, the reliable calculator, all sums as one batch, graded
 * truly (the exact grader) whatever grader the training episodes have: a grader's bug may
 * change what the agent learns, never how it is measured.
 */
import { reliableCalculator } from '../env/calculator';
import { REWARD_CORRECT } from '../env/episode';
import type { Sum } from '../env/sums';
import { rollout, type EpisodeRecord, type Policy, type RolloutOptions, type RolloutRow } from './rollout';

export interface Evaluation {
  success: number;
  correct: number;
  n: number;
  episodes: EpisodeRecord[];
}

/** parts: the rollout in parts of rows (model/parts.ts). */
export async function evaluateGreedy(
  model: Policy,
  sums: Sum[],
  parts: Pick<RolloutOptions, 'rowsPerPart' | 'onPart'> = {},
): Promise<Evaluation> {
  return scoreEvaluation(
    await rollout(model, sums, {
      calculator: reliableCalculator,
      grader: 'exact',
      temperature: 1,
      greedy: true,
      ...parts,
    }),
  );
}

/** The rows of an evaluation, for a batch it shares with other rows. */
export const evaluationRows = (sums: readonly Sum[]): RolloutRow[] =>
  sums.map((sum) => ({ sum, calculator: reliableCalculator, grader: 'exact', greedy: true }));

export function scoreEvaluation(episodes: EpisodeRecord[]): Evaluation {
  const correct = episodes.filter((e) => e.reward === REWARD_CORRECT).length;
  return { success: correct / episodes.length, correct, n: episodes.length, episodes };
}
