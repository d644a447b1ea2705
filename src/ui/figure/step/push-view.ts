/**
 * What the episode viewer shows of the push, character by character, from an episode's view
 * and the log-probs its record carries (rl/grpo.ts): each character's probability before and
 * after the update, which way it moved, and an accessible name ("B 0.91 → 0.94"). Whether a
 * character was trained on is the record's `trained` flag (rl/credit.ts decided it); nothing
 * here decides it again. Pure, tested in Node.
 */
import type { AuthorLetter, EpisodeView } from '../../../protocol/episode-view';
import { alignment, modelChars, timesAsLikely, type PushedEpisode } from '../../../rl/push';
import { signed } from './group-arithmetic';

/** Which way a character's probability moved: up, down, or by less than half a percent. */
type Shift = 'up' | 'down' | 'flat';

export interface PushChar {
  /** Index into the transcript (≥ 1: character 0, `^`, is never predicted). */
  index: number;
  ch: string;
  author: AuthorLetter;
  /** The loss covered it (the record's flag). */
  trained: boolean;
  before: number;
  after: number;
  shift: Shift;
  /** Moved by more than a tenth (|Δ log p| > 0.1). */
  strong: boolean;
  /** Accessible name: "B 0.91 → 0.94", or "68 … not trained on" for a masked environment character. */
  name: string;
  /** A sentence for hover and focus. */
  detail: string;
}

const FLAT = Math.log(1.005);
const STRONG = 0.1;

/** A probability as the viewer writes it: two decimals, three near 1, one significant digit under 0.01. */
export function prob(p: number): string {
  if (p >= 0.995) return p.toFixed(3);
  if (p >= 0.01) return p.toFixed(2);
  return p.toPrecision(1);
}

/**
 * "1.80× as likely", "0.62× as likely": two decimals, three within 1% of 1 (one step at the
 * plate's learning rate moves most characters by less), none from 10 up.
 */
export const times = (ratio: number): string =>
  `${ratio >= 10 ? ratio.toFixed(0) : Math.abs(ratio - 1) < 0.01 ? ratio.toFixed(3) : ratio.toFixed(2)}× as likely`;

const WHO: Record<AuthorLetter, string> = { p: 'the prompt’s', m: 'the model’s', e: 'the calculator’s' };

function meant(advantage: number): string {
  if (advantage > 0) return `its episode’s advantage is ${signed(advantage)}, so the update pushed for it`;
  if (advantage < 0) return `its episode’s advantage is ${signed(advantage)}, so the update pushed against it`;
  return 'its episode’s advantage is 0, so the update had no push for it: it moved only because every group shares the weights';
}

/** The characters after the prompt, with their push; empty if the record carries no log-probs. */
export function pushChars(e: Pick<EpisodeView, 'text' | 'authors' | 'trained' | 'advantage' | 'logp'>): PushChar[] {
  if (!e.logp) return [];
  const out: PushChar[] = [];
  for (let i = 1; i < e.text.length; i++) {
    const author = e.authors[i] as AuthorLetter;
    if (author === 'p') continue;
    const ch = e.text[i]!;
    const lb = e.logp.before[i - 1]!;
    const la = e.logp.after[i - 1]!;
    const [before, after] = [Math.exp(lb), Math.exp(la)];
    const d = la - lb;
    const shift: Shift = d > FLAT ? 'up' : d < -FLAT ? 'down' : 'flat';
    const trained = e.trained[i] === '1';
    const moved = `${prob(before)} before the update, ${prob(after)} after (${times(after / before)})`;
    const name = trained ? `${ch} ${prob(before)} → ${prob(after)}` : `${ch} not trained on`;
    const detail = trained
      ? `“${ch}”, ${WHO[author]}: probability ${moved}; ${meant(e.advantage)}.`
      : `“${ch}”, ${WHO[author]}: not trained on — observation masking keeps the calculator’s characters out of the loss (the model’s probability for it went ${prob(before)} → ${prob(after)} anyway, through the shared weights).`;
    out.push({ index: i, ch, author, trained, before, after, shift, strong: Math.abs(d) > STRONG, name, detail });
  }
  return out;
}

/** One line per episode: how much more (or less) likely the model's characters became, on average. */
export function episodeLine(e: Pick<EpisodeView, 'authors' | 'logp'>): string | null {
  if (!e.logp) return null;
  return `its characters ${times(timesAsLikely(e.logp, modelChars(e.authors)))} on average`;
}

/** The lede for one group: Σ advantage × mean Δ log p of the model's characters, in a sentence. */
export function groupLede(
  episodes: readonly Pick<EpisodeView, 'authors' | 'logp' | 'advantage'>[],
): { score: number; text: string } | null {
  if (episodes.length === 0 || episodes.some((e) => !e.logp)) return null;
  const pushed: PushedEpisode[] = episodes.map((e) => ({
    advantage: e.advantage,
    logp: e.logp!,
    chars: modelChars(e.authors),
  }));
  const score = alignment(pushed);
  const sum = `Σ advantage × mean change in log-probability of the model’s characters = ${score === 0 ? '0' : score.toFixed(3).replace('-', '−')}`;
  if (episodes.every((e) => e.advantage === 0))
    return { score, text: `${sum}: no advantage, so no push from this group.` };
  if (score > 0) return { score, text: `${sum} > 0: the update pushed this group the way its rewards say.` };
  return {
    score,
    text: `${sum} ≤ 0: this group was pushed against its rewards. One update serves all eight groups through the same weights (and Adam carries momentum from earlier steps), so a single group can lose out.`,
  };
}
