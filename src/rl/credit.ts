/**
 * How GRPO assigns credit — the one place that decides it, for the worker, the Node scripts and
 * the tests alike:
 *  - which characters the loss covers (observation masking: the model's only; with masking off
 *    the calculator's result characters too; 'all' adds the prompt, for the tests that show its
 *    gradient cancels within a group), and
 *  - what an episode's advantage is: its reward relative to its group (GRPO), or the raw reward.
 */
import type { Advantage, LossMask } from '../config';
import type { Author } from '../env/episode';
import { batchAdvantages, type AdvantageOptions } from './advantages';

export interface CreditConfig extends AdvantageOptions {
  lossMask: LossMask;
  advantage: Advantage;
  /** Episodes sampled per sum: the groups are this many consecutive episodes. */
  episodesPerSum: number;
}

/** Whether the loss covers a character written by `author` (padding never). */
export function trainedOn(author: Author | undefined, mask: LossMask): boolean {
  switch (author) {
    case 'model':
      return true;
    case 'env':
      return mask !== 'model';
    case 'prompt':
      return mask === 'all';
    default:
      return false;
  }
}

/** Characters 1.. of an episode the loss covers (character 0, `^`, is never predicted). */
export const trainedCount = (authors: readonly Author[], mask: LossMask): number =>
  authors.slice(1).filter((a) => trainedOn(a, mask)).length;

/** Each episode's advantage, in the order of `rewards` (groups of `episodesPerSum` consecutive episodes). */
export function episodeAdvantages(rewards: readonly number[], c: CreditConfig): number[] {
  return c.advantage === 'raw' ? [...rewards] : batchAdvantages(rewards, c.episodesPerSum, c);
}
