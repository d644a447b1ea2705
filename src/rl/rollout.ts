/**
 * Batched multi-turn rollouts. All rows advance in lockstep: at each position a row either
 * takes the next character the environment owes it (the calculator's result), or samples one
 * from the model, or pads once its episode is over. So every row stays at the same absolute
 * position and one key/value cache serves the batch. Each model call feeds the positions
 * decided since the last one: usually one character, but where no row needs the model
 * (each owes the environment's characters or is padding) the next positions are decided
 * without it and fed together as one [B, T] forward.
 *
 * Rows may differ in how they decode (greedy or sampled) and in their calculator, so the
 * held-out evaluation and the next step's sampling can share one batch. Sampled rows draw from
 * the rng in row order at each position, and calculators are called in row order, exactly as
 * they would in a batch of their own.
 *
 * A tool that takes time (`toolLatencyMs`): the calls completed at one position — any number of
 * rows, any of their calls — are answered together, as a harness sends a batch's pending tool
 * calls at once and waits for them, so the rollout waits once per position that has a call. The
 * results themselves are the same as an instant tool's; only the time differs.
 *
 * In parts (`rowsPerPart`, the plain-JavaScript backend's): each position's forward runs a few
 * rows at a time, each part with its own key/value cache, and `onPart` is called after each. A
 * row's numbers do not depend on the rows beside it, so the episodes are the same bit for bit
 * (test/rl/parts.test.ts).
 */
import * as tf from '@tensorflow/tfjs';
import type { Calculator } from '../env/calculator';
import { Episode, promptFor, type Author, type CallResult, type EndReason } from '../env/episode';
import type { Grader } from '../env/grader';
import type { Sum } from '../env/sums';
import type { Rng } from '../lib/rng';
import { cacheTensors, type CharModel, type KvCache } from '../model/gpt';
import { partsOf, type PartDone } from '../model/parts';
import { encode, PAD, PAD_ID, VOCAB } from '../model/vocab';

export interface RolloutOptions {
  calculator: Calculator;
  /** Who decides the rewards; default: the exact grader, the plate's. */
  grader?: Grader;
  /** Sampling temperature; ignored when greedy. */
  temperature: number;
  /** Greedy (argmax) decoding, as in held-out evaluation. */
  greedy: boolean;
  /** Draws the sampled characters; unused when greedy. */
  rng?: Rng;
  /** Milliseconds the calculator takes to answer a position's calls (0 or absent: instantly). */
  toolLatencyMs?: number;
  /** Rows a forward computes at once (absent: all of them). */
  rowsPerPart?: number;
  /** Called after each forward's part with its units (model/parts.ts: a row at a position is one). */
  onPart?: PartDone;
}

/** One row of a mixed batch. */
export interface RolloutRow {
  sum: Sum;
  calculator: Calculator;
  /** The grader of this row's episode: a training row may carry a bug, a held-out row never does. */
  grader: Grader;
  /** Argmax decoding at temperature 1 (held-out evaluation); else sampled at the batch's temperature. */
  greedy: boolean;
}

export interface EpisodeRecord {
  sum: Sum;
  /** The whole transcript, prompt included, without padding. */
  text: string;
  /** Who wrote each character of `text`. */
  authors: Author[];
  /** Every calculator call's result, in call order (one per call the model completed). */
  results: CallResult[];
  /** The last call's result (null if none): the one an answer that copies the tool copies. */
  result: CallResult | null;
  answer: string;
  /** What the row's grader paid. */
  reward: number;
  /** The final answer is the true sum: what the exact grader would have paid for. */
  correct: boolean;
  reason: EndReason;
  /**
   * The entropy (nats) of the policy's next-character distribution, at the distribution it
   * sampled from, summed over the characters the model wrote: divided by their number, the
   * policy's entropy as TRL logs it (at most ln 16 a character, for 16 characters).
   */
  modelEntropy: number;
}

/**
 * What rollouts need of a model: its config and an incremental forward (a scripted policy in
 * tests), and optionally a frozen copy for the rollout's many forwards with fixed weights.
 */
export type Policy = Pick<CharModel, 'config' | 'forward'> & Partial<Pick<CharModel, 'frozen'>>;

export const disposeCache = (c: KvCache): void => tf.dispose(cacheTensors(c));

/** Runs one episode per sum, as one batch. */
export function rollout(model: Policy, sums: readonly Sum[], opts: RolloutOptions): Promise<EpisodeRecord[]> {
  return rolloutRows(
    model,
    sums.map((sum) => ({ sum, calculator: opts.calculator, grader: opts.grader ?? 'exact', greedy: opts.greedy })),
    opts,
  );
}

/** Runs one episode per row, as one batch; rows may mix greedy and sampled decoding. */
export async function rolloutRows(
  model: Policy,
  rows: readonly RolloutRow[],
  opts: Pick<RolloutOptions, 'temperature' | 'rng' | 'toolLatencyMs' | 'rowsPerPart' | 'onPart'>,
): Promise<EpisodeRecord[]> {
  if (rows.some((r) => !r.greedy) && !opts.rng) throw new Error('rollout: sampling needs an rng');
  const B = rows.length;
  const context = model.config.context;
  const batch = new Transcripts(rows);
  // Greedy rows read probabilities at temperature 1, sampled rows at the batch's.
  const temperatures = rows.map((r) => (r.greedy ? 1 : opts.temperature));
  const parts = partsOf(B, opts.rowsPerPart);
  const frozen = model.frozen?.();
  const policy = frozen ?? model;
  let probs: tf.Tensor2D | undefined;
  const caches: (KvCache | undefined)[] = parts.map(() => undefined);
  try {
    let chunk = batch.texts.map((t) => encode(t)); // [B][T]: the positions to feed next (the prompts' common length)
    let start = 0;
    for (;;) {
      const T = chunk[0]!.length;
      let p: ArrayLike<number> = parts.length > 1 ? new Float32Array(B * VOCAB.length) : [];
      for (const [k, part] of parts.entries()) {
        const past = caches[k];
        const ids = part.length === B ? chunk.flat() : part.flatMap((r) => chunk[r]!);
        const temps = part.length === B ? temperatures : part.map((r) => temperatures[r]!);
        let cache: KvCache;
        ({ probs, cache } = tf.tidy(() =>
          nextProbs(policy, tf.tensor2d(ids, [part.length, T], 'int32'), start, past, temps),
        ));
        caches[k] = cache;
        if (past) disposeCache(past);
        const got = await probs.data(); // [rows * V], the one readback per model call (per part)
        probs.dispose();
        probs = undefined;
        if (parts.length > 1) (p as Float32Array).set(got, part[0]! * VOCAB.length);
        else p = got;
        await opts.onPart?.(part.length * T);
      }
      start += T;
      // Decide position `start` from p, then the positions after it that need no model.
      chunk = rows.map(() => []);
      for (let pos = start, withModel = true; ; pos++, withModel = false) {
        if (!withModel && batch.needsModel()) break;
        batch.decide(withModel ? p : null, opts.rng).forEach((id, r) => chunk[r]!.push(id));
        if (batch.takeCalled() && opts.toolLatencyMs) await delay(opts.toolLatencyMs);
        if (!batch.active() || pos + 1 >= context) {
          batch.stopAtContextLimit();
          return batch.records();
        }
      }
    }
  } finally {
    tf.dispose(probs ?? []);
    for (const c of caches) if (c) disposeCache(c);
    frozen?.dispose();
  }
}

/** The rows' transcripts as they grow, and who wrote what. */
class Transcripts {
  private readonly episodes: Episode[];
  readonly texts: string[];
  private readonly authors: Author[][];
  /**
   * Characters the harness still has to write, per row, and who wrote them: the rest of a
   * prompt longer than the batch's shortest (operands need not have two digits), or the
   * calculator's result.
   */
  private readonly owed: string[];
  private readonly owedBy: Author[];
  private readonly entropy: number[];
  /** Some row completed a calculator call since takeCalled() last asked. */
  private called = false;

  constructor(private readonly rows: readonly RolloutRow[]) {
    const prompts = rows.map((r) => promptFor(r.sum));
    const common = Math.min(...prompts.map((p) => p.length));
    this.episodes = rows.map((r) => new Episode(r.sum, r.calculator, r.grader));
    this.texts = prompts.map((p) => p.slice(0, common));
    this.authors = rows.map(() => Array<Author>(common).fill('prompt'));
    this.owed = prompts.map((p) => p.slice(common));
    this.owedBy = rows.map(() => 'prompt');
    this.entropy = rows.map(() => 0);
  }

  /** Some row's next character is the model's to write. */
  needsModel(): boolean {
    return this.episodes.some((ep, r) => !ep.done && this.owed[r] === '');
  }

  /** Some row is still writing or still owed characters. */
  active(): boolean {
    return this.episodes.some((ep, r) => !ep.done || this.owed[r] !== '');
  }

  /**
   * Every row's character at the next position, as vocabulary ids (padding for finished rows).
   * p: next-character probabilities [B * V], needed only when some row's character is the model's.
   */
  decide(p: ArrayLike<number> | null, rng: Rng | undefined): number[] {
    const V = VOCAB.length;
    return this.rows.map((row, r) => {
      const ep = this.episodes[r]!;
      if (ep.done && this.owed[r] === '') return PAD_ID;
      let ch: string;
      if (this.owed[r] !== '') {
        ch = this.owed[r]![0]!;
        this.owed[r] = this.owed[r]!.slice(1);
        this.authors[r]!.push(this.owedBy[r]!);
      } else {
        if (!p) throw new Error('rollout: a row needs the model at a position decided without it');
        const id = row.greedy ? argmax(p, r * V, V) : sample(p, r * V, V, rng!);
        this.entropy[r]! += entropyAt(p, r * V, V);
        ch = VOCAB[id]!;
        this.authors[r]!.push('model');
        this.owed[r] = ep.feed(ch);
        this.owedBy[r] = 'env';
        this.called ||= this.owed[r] !== '';
      }
      this.texts[r] += ch;
      return ch === PAD ? PAD_ID : encode(ch)[0]!;
    });
  }

  /** Whether some row completed a call since the last time this was asked. */
  takeCalled(): boolean {
    const called = this.called;
    this.called = false;
    return called;
  }

  stopAtContextLimit(): void {
    for (const ep of this.episodes) ep.stopAtContextLimit();
  }

  records(): EpisodeRecord[] {
    return this.episodes.map((ep, r) => ({
      sum: ep.sum,
      text: this.texts[r]!,
      authors: this.authors[r]!,
      results: [...ep.results],
      result: ep.result,
      answer: ep.answer,
      reward: ep.reward,
      correct: ep.correct,
      reason: ep.reason!,
      modelEntropy: this.entropy[r]!,
    }));
  }
}

/**
 * ids: [B, T] at positions start..start+T-1 → probabilities of the character after the last
 * [B, V], at each row's temperature, and the grown cache.
 */
export function nextProbs(
  model: Policy,
  ids: tf.Tensor2D,
  start: number,
  cache: KvCache | undefined,
  temperatures: number[],
): { probs: tf.Tensor2D; cache: KvCache } {
  const { logits, cache: grown } = model.forward(ids, { start, cache }); // logits: [B, T, V]
  const [B, T, V] = logits.shape;
  const last = T === 1 ? logits.reshape([B, V]) : logits.slice([0, T - 1, 0], [B, 1, V]).reshape([B, V]); // [B, V]
  const scaled = temperatures.every((t) => t === 1) ? last : tf.div(last, tf.tensor2d(temperatures, [B, 1])); // x / 1 is exact
  return { probs: tf.softmax(scaled) as tf.Tensor2D, cache: grown };
}

/**
 * −Σ p log p of the distribution p[offset .. offset + n), in nats.
 * @internal A test seam: exported for test/rl/metrics.test.ts.
 */
export function entropyAt(p: ArrayLike<number>, offset: number, n: number): number {
  let h = 0;
  for (let i = 0; i < n; i++) {
    const q = p[offset + i]!;
    if (q > 0) h -= q * Math.log(q);
  }
  return h;
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function argmax(p: ArrayLike<number>, offset: number, n: number): number {
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
