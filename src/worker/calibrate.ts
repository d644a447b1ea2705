/**
 * One GRPO step in miniature, timed on whatever tfjs backend is active: the worker's backend
 * race (worker/backend-race.ts) runs it on each candidate and keeps the fastest. It looks like the
 * real work because it is the real code: the rollout's forward with its key/value cache and one
 * readback per position (nextProbs), and the policy update (policyUpdate with the trainers'
 * Adam) on a GRPO-sized batch of demonstration-shaped episodes. Weights are a fresh random
 * model of the plate's size: speed does not depend on their values.
 *
 * Warm-up first (compiles shaders on a GPU, tiers up WebAssembly), then the timed part. A bound
 * (the best time so far, times a margin) cuts a slow candidate short between operations: it
 * stops as soon as it is clearly slower, rather than finishing a step that has already lost.
 */
import * as tf from '@tensorflow/tfjs';
import { GRPO, MODEL, type ModelConfig } from '../config';
import type { Cut } from '../protocol/backends';
import { demonstrationFor, promptFor } from '../env/episode';
import { SPLIT } from '../env/sums';
import { adam } from '../model/adam';
import { CharModel, type KvCache } from '../model/gpt';
import { encode } from '../model/vocab';
import { argmax, disposeCache, nextProbs } from '../rl/rollout';
import { policyUpdate } from '../rl/update';

export interface CalibrationOptions {
  /** Stop as soon as the timed part has taken longer than this (ms); the result is then `cut`. */
  bound?: number;
  /** Stop after the warm-up if it took longer than this (ms): a candidate that slow to start has lost. */
  warmUpBound?: number;
  model?: ModelConfig;
  /** Sampled positions timed, each with its readback (a real step samples ~15). */
  positions?: number;
  /** Check the round-trip floor before the warm-up (default true; false isolates the pass bound in tests). */
  floor?: boolean;
}

export interface Calibration {
  /** Milliseconds of the fastest timed pass, or, when cut, how long the last one ran before it was stopped. */
  ms: number;
  /** Stopped early by a bound, and where (protocol/backends.ts says what `ms` then is). */
  cut: Cut | false;
  warmUpMs: number;
  /** Each completed timed pass (ms). */
  passes: number[];
  /** Sampled positions read back, warm-up included: where a cut stopped. */
  readbacks: number;
}

/** A step's sampling batch: every group's episodes and the held-out sums, as in shareBatch. */
const ROWS = GRPO.sumsPerStep * GRPO.episodesPerSum + SPLIT.heldOut.length;
export const POSITIONS = 4;
/** At most this many timed passes; stop once a pass is slower than SETTLED × the best before it. */
export const PASSES = 4;
const SETTLED = 0.85;

/** A pass of `ms` after `passes` has stopped paying: WebAssembly has tiered up (or there was nothing to tier). */
export const settled = (ms: number, passes: readonly number[]): boolean => ms > SETTLED * Math.min(...passes);

/** The update's batch: one group per training sum, demonstration-shaped, advantages ±1. */
export function updateBatch(): { episodes: ReturnType<typeof demonstrationFor>[]; advantages: number[] } {
  const episodes = Array.from({ length: GRPO.sumsPerStep * GRPO.episodesPerSum }, (_, i) =>
    demonstrationFor(SPLIT.train[i % SPLIT.train.length]!),
  );
  return { episodes, advantages: episodes.map((_, i) => (i % 2 === 0 ? 1 : -1)) };
}

export async function calibrate(opts: CalibrationOptions = {}): Promise<Calibration> {
  const now = () => performance.now();
  const config = opts.model ?? MODEL;
  const model = CharModel.create(config, 1);
  const optimizer = adam(GRPO.lr);
  const positions = opts.positions ?? POSITIONS;
  const { episodes, advantages } = updateBatch();
  let readbacks = 0;
  const counted = () => void readbacks++;
  const t0 = now();
  try {
    if (opts.bound !== undefined && opts.floor !== false) {
      // Each timed pass waits for POSITIONS + 2 readbacks (the prompt, each position, the loss),
      // and none can return faster than one round trip: a backend whose round trip alone puts it
      // past the bound has lost before its shaders are compiled (seconds on a software GPU).
      const floor = (await roundTrip(model.config.vocabSize)) * (positions + 2);
      if (floor > opts.bound) return { ms: floor, cut: 'round-trip', warmUpMs: now() - t0, passes: [], readbacks };
    }
    // Warm-up: every kernel of the timed part runs once (the update on two episodes).
    // Checked after each readback too: on a slow GPU the first forward alone compiles dozens of shaders.
    const slowStart = () => opts.warmUpBound !== undefined && now() - t0 > opts.warmUpBound;
    const gaveUp = (): Calibration => {
      const ms = now() - t0;
      return { ms, cut: 'warm-up', warmUpMs: ms, passes: [], readbacks };
    };
    if (!(await sample(model, 1, slowStart, counted)) || slowStart()) return gaveUp();
    await policyUpdate({
      model,
      optimizer,
      episodes: episodes.slice(0, 2),
      advantages: [1, -1],
      config: GRPO,
      step: 0,
    });
    const warmUpMs = now() - t0;
    if (slowStart()) return gaveUp();
    // Timed passes until one is no longer clearly faster than the best before it: WebAssembly
    // tiers up for a while after start (the first pass measured 600 ms in Node, the fourth 73).
    const passes: number[] = [];
    for (let k = 0; k < PASSES; k++) {
      const t1 = now();
      const over = () => opts.bound !== undefined && now() - t1 > opts.bound;
      if (!(await sample(model, positions, over, counted)))
        return { ms: now() - t1, cut: 'pass', warmUpMs, passes, readbacks };
      await policyUpdate({ model, optimizer, episodes, advantages, config: GRPO, step: k + 1 });
      const ms = now() - t1;
      if (over()) return { ms, cut: 'pass', warmUpMs, passes, readbacks };
      const done = settled(ms, passes);
      passes.push(ms);
      if (done) break;
    }
    return { ms: Math.min(...passes), cut: false, warmUpMs, passes, readbacks };
  } finally {
    optimizer.dispose();
    model.dispose();
  }
}

/** Milliseconds for one small result to come back: a [B, V] softmax read back, timed the second time (the first compiles). */
async function roundTrip(V: number): Promise<number> {
  let ms = 0;
  for (let k = 0; k < 2; k++) {
    const t = performance.now();
    const x = tf.tidy(() => tf.softmax(tf.ones([ROWS, V])));
    await x.data();
    x.dispose();
    ms = performance.now() - t;
  }
  return ms;
}

/**
 * The rollout's model calls: the prompts' common length in one forward, then `positions` single
 * positions on the growing cache, each read back as the rollout reads it. False if `over` said stop.
 */
export async function sample(
  model: CharModel,
  positions: number,
  over: () => boolean,
  readBack: () => void,
): Promise<boolean> {
  const frozen = model.frozen();
  const temperatures = Array<number>(ROWS).fill(GRPO.temperature);
  const prompt = encode(promptFor(SPLIT.train[0]!));
  const V = model.config.vocabSize;
  let cache: KvCache | undefined;
  try {
    let ids = Array.from({ length: ROWS }, () => prompt); // [B][T]
    for (let p = 0, start = 0; p <= positions; p++) {
      const past = cache;
      const T = ids[0]!.length;
      const out = tf.tidy(() =>
        nextProbs(frozen, tf.tensor2d(ids.flat(), [ROWS, T], 'int32'), start, past, temperatures),
      );
      cache = out.cache;
      if (past) disposeCache(past);
      start += T;
      const probs = await out.probs.data(); // [B * V]
      out.probs.dispose();
      readBack();
      if (over()) return false;
      ids = ids.map((_, r) => [argmax(probs, r * V, V)]);
    }
    return true;
  } finally {
    if (cache) disposeCache(cache);
    frozen.dispose();
  }
}
