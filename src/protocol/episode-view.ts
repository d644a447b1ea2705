/**
 * A compact, serialisable view of an episode for the page (and the worker's messages): the
 * transcript, one letter per character for who wrote it, which characters the loss covered (as
 * rl/credit.ts decides it for the run's settings), reward and advantage. The letters are a
 * display code of the wire format; rl/ speaks of authors in full.
 */
import type { Author } from '../env/episode';
import type { EndReason } from '../env/grader';
import type { Sum } from '../env/sums';
import type { StageRecord } from '../pipeline/run';
import { trainedOn } from '../rl/credit';
import type { GrpoConfig, LossMask } from '../config';
import type { GrpoRecord } from '../rl/grpo';
import type { SupervisedStageName } from '../agent/stage';

/** An Author on the wire, one letter per character: p = prompt, m = model, e = environment. */
export type AuthorLetter = 'p' | 'm' | 'e';
const CODE: Record<Exclude<Author, 'pad'>, AuthorLetter> = { prompt: 'p', model: 'm', env: 'e' };

export interface EpisodeView {
  sum: Sum;
  text: string;
  /** Who wrote each character of `text`, as its AuthorLetter. */
  authors: string;
  /** Per character of `text`: '1' where the loss covered it, else '0'. */
  trained: string;
  /** What the run's grader paid. */
  reward: number;
  /** The final answer is the true sum (what the exact grader pays for): reward without it is a bug's. */
  correct: boolean;
  advantage: number;
  /** The calculator lied in this episode (at any of its calls). */
  lied: boolean;
  reason: EndReason;
  /**
   * Log-probability of each character after the first before the step's update and after it
   * (index j: character j + 1), as the trainer recorded them; absent where no update happened.
   */
  logp?: { before: Float32Array; after: Float32Array };
}

/** An episode the reader asked for (no update: no advantage, nothing trained). */
export type AskEpisode = Pick<EpisodeView, 'sum' | 'text' | 'authors' | 'reward' | 'lied' | 'reason'>;

/** Authors as one letter each ('pad' never appears in a transcript). */
export const codes = (authors: readonly Author[]): string =>
  authors.map((a) => CODE[a as Exclude<Author, 'pad'>]).join('');

/** What a view needs of an episode. */
export interface EpisodeLike {
  sum: Sum;
  text: string;
  authors: readonly Author[];
  reward: number;
  correct: boolean;
  /** Every call's result, in call order. */
  results: readonly { lied: boolean }[];
  reason: EndReason;
  logp?: { before: ArrayLike<number>; after: ArrayLike<number> };
}

/** '1' per character the loss covers under `mask` (character 0, `^`, is never predicted). */
export const trainedFlags = (authors: readonly Author[], mask: LossMask): string =>
  authors.map((a, i) => (i > 0 && trainedOn(a, mask) ? '1' : '0')).join('');

/** @internal A test seam: exported for the test of one episode's view. */
export function toView(e: EpisodeLike, advantage: number, mask: LossMask): EpisodeView {
  const view: EpisodeView = {
    sum: e.sum,
    text: e.text,
    authors: codes(e.authors),
    trained: trainedFlags(e.authors, mask),
    reward: e.reward,
    correct: e.correct,
    advantage,
    lied: e.results.some((r) => r.lied),
    reason: e.reason,
  };
  // Float32Array: compact in the page's memory (40 steps × 64 episodes) and in postMessage.
  if (e.logp) view.logp = { before: Float32Array.from(e.logp.before), after: Float32Array.from(e.logp.after) };
  return view;
}

/** An asked episode for the page. */
export const askView = (e: Omit<EpisodeLike, 'logp'>): AskEpisode => ({
  sum: e.sum,
  text: e.text,
  authors: codes(e.authors),
  reward: e.reward,
  lied: e.results.some((r) => r.lied),
  reason: e.reason,
});

/** A stage's record for the page: a GRPO step's episodes as views (trained as `config` says), the rest as it is. */
export function stageView(r: StageRecord, config: Pick<GrpoConfig, 'lossMask'>): StageView {
  if (r.stage !== 'grpo') return r;
  const mask = config.lossMask;
  return {
    stage: 'grpo',
    record: {
      ...r.record,
      sampled: r.record.episodes.length,
      episodes: r.record.episodes.map((e) => toView(e, e.advantage, mask)),
    },
  };
}

/**
 * A GRPO step as it crosses to the page: its figures, and its episodes as compact views (one
 * letter per character for who wrote it) instead of the trainer's full records.
 */
export type GrpoStepView = Omit<GrpoRecord, 'episodes'> & {
  episodes: EpisodeView[];
  /** How many episodes the step sampled: its rates' denominator, kept when the page drops an earlier run's episodes. */
  sampled: number;
};

/** A record of any stage as it crosses to the page. */
export type StageView = { stage: 'grpo'; record: GrpoStepView } | Extract<StageRecord, { stage: SupervisedStageName }>;
