/**
 * The push of one GRPO step, character by character: how the update changed the probability of
 * each character an episode holds, and whether it pushed the way the advantages say. Pure
 * arithmetic on log-probs the trainer recorded (rl/grpo.ts), no tensors: the page uses it too.
 *
 * The plate's lede — "push up every action of the episodes that scored well" — to first order:
 * for a set of episodes, Σ_i A_i · (mean over episode i's model characters of Δ log p) > 0.
 * One update serves all groups of a step through shared weights (and Adam carries moments from
 * earlier steps), so it should hold for the whole batch but can fail for a single group.
 */

/** Log-probabilities before and after an update; index j is character j + 1 of the transcript. */
export interface EpisodeLogp {
  before: ArrayLike<number>;
  after: ArrayLike<number>;
}

/** An episode as the alignment needs it: its advantage, its log-probs, which characters are the model's. */
export interface PushedEpisode {
  advantage: number;
  logp: EpisodeLogp;
  /** Indices (≥ 1) into the transcript of the characters that count: the model's. */
  chars: readonly number[];
}

/** Indices of characters written by the model: authors as rl/ spells them ('model') or as the page's views code them ('m'). */
export const modelChars = (authors: readonly string[] | string): number[] => {
  const out: number[] = [];
  for (let i = 1; i < authors.length; i++) if (authors[i] === 'model' || authors[i] === 'm') out.push(i);
  return out;
};

/** Change in log-probability of character i (≥ 1). */
export const logpChange = (logp: EpisodeLogp, i: number): number => logp.after[i - 1]! - logp.before[i - 1]!;

/**
 * Mean change in log-probability over the characters `chars`; 0 for none.
 * @internal A test seam: exported for its test.
 */
export function meanLogpChange(logp: EpisodeLogp, chars: readonly number[]): number {
  if (chars.length === 0) return 0;
  let sum = 0;
  for (const i of chars) sum += logpChange(logp, i);
  return sum / chars.length;
}

/**
 * How many times as likely the characters became, on average (the geometric mean of their
 * probability ratios): exp(mean Δ log p). 1.8 reads "1.8× as likely".
 */
export const timesAsLikely = (logp: EpisodeLogp, chars: readonly number[]): number =>
  Math.exp(meanLogpChange(logp, chars));

/** Σ_i A_i · mean Δ log p_i: positive when the update pushed the way the advantages say. */
export const alignment = (episodes: readonly PushedEpisode[]): number =>
  episodes.reduce((s, e) => s + (e.advantage === 0 ? 0 : e.advantage * meanLogpChange(e.logp, e.chars)), 0);

/** The alignment of each group of `groupSize` consecutive episodes. */
export function groupAlignments(episodes: readonly PushedEpisode[], groupSize: number): number[] {
  const out: number[] = [];
  for (let g = 0; g < episodes.length; g += groupSize) out.push(alignment(episodes.slice(g, g + groupSize)));
  return out;
}
