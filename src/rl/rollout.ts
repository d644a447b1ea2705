/**
 * Batched multi-turn rollouts. All rows advance in lockstep, one position per model call:
 * at each position a row either takes the next character the environment owes it (the
 * calculator's result), or samples one from the model, or pads once its episode is over.
 * So every row stays at the same absolute position and one key/value cache serves the batch:
 * each new character costs one [B, 1] forward, not a re-run of the whole prefix.
 */
import * as tf from '@tensorflow/tfjs';
import type { Calculator } from '../env/calculator';
import { Episode, PROMPT_LENGTH, promptFor, type Author, type EndReason } from '../env/episode';
import type { Sum } from '../env/sums';
import type { Rng } from '../lib/rng';
import type { CharModel, KvCache } from '../model/gpt';
import { encode, PAD, PAD_ID, VOCAB } from '../model/vocab';

export interface RolloutOptions {
  calculator: Calculator;
  /** Sampling temperature; ignored when greedy. */
  temperature: number;
  /** Greedy (argmax) decoding, as in held-out evaluation. */
  greedy: boolean;
  /** Draws the sampled characters; unused when greedy. */
  rng?: Rng;
}

export interface EpisodeRecord {
  sum: Sum;
  /** The whole transcript, prompt included, without padding. */
  text: string;
  /** Who wrote each character of `text`. */
  authors: Author[];
  /** Log-probability (at the sampling temperature) of each character the model wrote; 0 elsewhere. */
  logp: number[];
  result: { value: number; lied: boolean } | null;
  answer: string;
  reward: number;
  reason: EndReason;
}

/**
 * What rollouts need of a model: its config and an incremental forward (a scripted policy in
 * tests), and optionally a frozen copy for the rollout's many forwards with fixed weights.
 */
export type Policy = Pick<CharModel, 'config' | 'forward'> & Partial<Pick<CharModel, 'frozen'>>;

const disposeCache = (c: KvCache): void => tf.dispose([...c.k, ...c.v]);

/** Runs one episode per sum, as one batch. */
export async function rollout(model: Policy, sums: Sum[], opts: RolloutOptions): Promise<EpisodeRecord[]> {
  const B = sums.length;
  const V = VOCAB.length;
  const context = model.config.context;
  if (!opts.greedy && !opts.rng) throw new Error('rollout: sampling needs an rng');
  const episodes = sums.map((s) => new Episode(s, opts.calculator));
  const texts = sums.map(promptFor);
  const authors: Author[][] = sums.map(() => Array<Author>(PROMPT_LENGTH).fill('prompt'));
  const logps: number[][] = sums.map(() => Array<number>(PROMPT_LENGTH).fill(0));
  const owed = sums.map(() => ''); // characters the environment still has to append, per row

  const frozen = model.frozen?.();
  const policy = frozen ?? model;
  let probs: tf.Tensor2D | undefined;
  let cache: KvCache | undefined;
  try {
    ({ probs, cache } = tf.tidy(() => nextProbs(policy, tf.tensor2d(texts.flatMap(encode), [B, PROMPT_LENGTH], 'int32'), 0, undefined, opts)));
    const next = new Int32Array(B);
    for (let pos = PROMPT_LENGTH; ; pos++) {
      const p = await probs.data(); // [B * V], the one readback per position
      probs.dispose();
      probs = undefined;
      for (let r = 0; r < B; r++) {
        const ep = episodes[r]!;
        let ch: string;
        let author: Author;
        let lp = 0;
        if (ep.done && owed[r] === '') {
          ch = PAD;
          author = 'pad';
        } else if (owed[r] !== '') {
          ch = owed[r]![0]!;
          owed[r] = owed[r]!.slice(1);
          author = 'env';
        } else {
          const id = opts.greedy ? argmax(p, r * V, V) : sample(p, r * V, V, opts.rng!);
          ch = VOCAB[id]!;
          author = 'model';
          lp = Math.log(p[r * V + id]!);
          owed[r] = ep.feed(ch);
        }
        next[r] = ch === PAD ? PAD_ID : encode(ch)[0]!;
        if (author !== 'pad') {
          texts[r] += ch;
          authors[r]!.push(author);
          logps[r]!.push(lp);
        }
      }
      const active = episodes.some((ep, r) => !ep.done || owed[r] !== '');
      if (!active || pos + 1 >= context) {
        for (const ep of episodes) ep.stopAtContextLimit();
        break;
      }
      const past: KvCache = cache;
      ({ probs, cache } = tf.tidy(() => nextProbs(policy, tf.tensor2d(next, [B, 1], 'int32'), pos, past, opts)));
      disposeCache(past);
    }
  } finally {
    tf.dispose(probs ?? []);
    if (cache) disposeCache(cache);
    frozen?.dispose();
  }

  return episodes.map((ep, r) => ({
    sum: ep.sum,
    text: texts[r]!,
    authors: authors[r]!,
    logp: logps[r]!,
    result: ep.result,
    answer: ep.answer,
    reward: ep.reward,
    reason: ep.reason!,
  }));
}

/** ids: [B, T] at positions start..start+T-1 → next-character probabilities [B, V] and the grown cache. */
function nextProbs(model: Policy, ids: tf.Tensor2D, start: number, cache: KvCache | undefined, opts: RolloutOptions): { probs: tf.Tensor2D; cache: KvCache } {
  return tf.tidy(() => {
    const { logits, cache: grown } = model.forward(ids, { start, cache }); // logits: [B, T, V]
    const [B, T, V] = logits.shape;
    const last = logits.slice([0, T - 1, 0], [B, 1, V]).reshape([B, V]); // [B, V]
    const t = opts.greedy ? 1 : opts.temperature;
    return { probs: tf.softmax(t === 1 ? last : tf.div(last, t)) as tf.Tensor2D, cache: grown };
  });
}

function argmax(p: ArrayLike<number>, offset: number, n: number): number {
  let best = 0;
  for (let i = 1; i < n; i++) if (p[offset + i]! > p[offset + best]!) best = i;
  return best;
}

function sample(p: ArrayLike<number>, offset: number, n: number, rng: Rng): number {
  let u = rng.next();
  for (let i = 0; i < n; i++) {
    u -= p[offset + i]!;
    if (u < 0) return i;
  }
  // Rounding left a sliver of mass: take the last character with any probability.
  for (let i = n - 1; i >= 0; i--) if (p[offset + i]! > 0) return i;
  return n - 1;
}
