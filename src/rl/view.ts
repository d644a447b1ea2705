/**
 * A compact, serialisable view of an episode for the page (and the worker's messages):
 * the transcript, one letter per character for who wrote it, reward and advantage.
 */
import type { Author, EndReason } from '../env/episode';
import type { Sum } from '../env/sums';
import type { EpisodeRecord } from './rollout';

/** p = prompt, m = model, e = environment. */
export type AuthorCode = 'p' | 'm' | 'e';
const CODE: Record<Exclude<Author, 'pad'>, AuthorCode> = { prompt: 'p', model: 'm', env: 'e' };

export interface EpisodeView {
  sum: Sum;
  text: string;
  /** One AuthorCode per character of `text`. */
  authors: string;
  reward: number;
  advantage: number;
  /** The calculator lied in this episode. */
  lied: boolean;
  reason: EndReason;
}

export function toView(e: EpisodeRecord, advantage: number): EpisodeView {
  return {
    sum: e.sum,
    text: e.text,
    authors: e.authors.map((a) => CODE[a as Exclude<Author, 'pad'>]).join(''),
    reward: e.reward,
    advantage,
    lied: e.result?.lied ?? false,
    reason: e.reason,
  };
}
