/** Held-out evaluation: greedy decoding, the reliable calculator, all sums as one batch. */
import { reliableCalculator } from '../env/calculator';
import { REWARD_CORRECT } from '../env/episode';
import type { Sum } from '../env/sums';
import { rollout, type EpisodeRecord, type Policy } from './rollout';

export interface Evaluation {
  success: number;
  correct: number;
  n: number;
  episodes: EpisodeRecord[];
}

export async function evaluateGreedy(model: Policy, sums: Sum[]): Promise<Evaluation> {
  const episodes = await rollout(model, sums, { calculator: reliableCalculator, temperature: 1, greedy: true });
  const correct = episodes.filter((e) => e.reward === REWARD_CORRECT).length;
  return { success: correct / sums.length, correct, n: sums.length, episodes };
}
