// Rollouts in the two-call world: both calls answered, who wrote what, a slow tool waited on once
// per position whose calls completed — and observation masking over both of the environment's segments.
import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GRPO } from '../../src/config';
import { faultyCalculator, reliableCalculator } from '../../src/env/calculator';
import { demonstrationFor, promptFor } from '../../src/env/episode';
import { terms, total, TWO_CALL_SPLIT } from '../../src/env/sums';
import { createRng } from '../../src/lib/rng';
import { CharModel } from '../../src/model/gpt';
import { shiftTokens } from '../../src/model/logprobs';
import { makeTokenBatch } from '../../src/model/supervised';
import type { LossMask } from '../../src/config';
import { episodeAdvantages, trainedOn } from '../../src/rl/credit';
import { clippedLoss } from '../../src/rl/loss';
import { rollout, rolloutRows, type EpisodeRecord } from '../../src/rl/rollout';
import { scriptedPolicy, TINY, useWasm } from '../tf';

beforeAll(useWasm);
afterEach(() => vi.restoreAllMocks());

/**
 * A two-call agent: calls on the first two terms, then on the first result and the third term,
 * then copies the second result. `slip(row)` makes a row's second call use a wrong operand.
 */
const copier = (slip: (row: number) => boolean = () => false) =>
  scriptedPolicy((row, text) => {
    const m = /^\^(\d+)\+(\d+)\+(\d+)=(.*)$/.exec(text);
    if (!m) return '.'; // still being fed its prompt: never read
    const after = m[4]!;
    const call1 = `B${m[1]}+${m[2]}|`;
    if (after.length < call1.length) return call1[after.length]!;
    const rest1 = after.slice(call1.length);
    const result1 = rest1.split('|')[0]!;
    const afterResult1 = rest1.slice(result1.length + 1);
    const call2 = `B${Number(result1) + (slip(row) ? 1 : 0)}+${m[3]}|`;
    if (afterResult1.length < call2.length) return call2[afterResult1.length]!;
    const rest2 = afterResult1.slice(call2.length);
    const result2 = rest2.split('|')[0]! + '|';
    return result2[rest2.length - result2.length] ?? '.';
  }, 48);

const who = (authors: string[]) => authors.map((a) => a[0]).join('');

describe('two-call rollouts', () => {
  it('of a copying agent play both calls, record both results and earn the reward', async () => {
    const sums = TWO_CALL_SPLIT.heldOut.slice(0, 6);
    const eps = await rollout(copier(), sums, { calculator: reliableCalculator, temperature: 1, greedy: true });
    eps.forEach((e, i) => {
      expect(e.text).toBe(demonstrationFor(sums[i]!).text);
      expect(who(e.authors)).toBe(who(demonstrationFor(sums[i]!).authors));
      expect(e.results.map((r) => r.lied)).toEqual([false, false]);
      expect(e.result).toBe(e.results[1]);
      expect([e.reward, e.reason]).toEqual([1, 'answered']);
    });
  });

  it('with a faulty calculator record a lie at either call, and pay every episode with none', async () => {
    const sums = Array.from({ length: 60 }, (_, i) => TWO_CALL_SPLIT.train[i % 70]!);
    const eps = await rollout(copier(), sums, {
      calculator: faultyCalculator(createRng(3), 0.3),
      temperature: 1,
      greedy: true,
    });
    const lied = (e: EpisodeRecord, k: number) => e.results[k]!.lied;
    expect(eps.some((e) => lied(e, 0) && !lied(e, 1))).toBe(true);
    expect(eps.some((e) => !lied(e, 0) && lied(e, 1))).toBe(true);
    for (const e of eps) {
      // Two lies can cancel (−1, then +1): the copied answer is then the true total, and paid.
      expect(e.reward).toBe(Number(e.answer) === total(e.sum) ? 1 : 0);
      if (!e.results.some((r) => r.lied)) expect(e.reward).toBe(1);
    }
    expect(eps.filter((e) => e.results.some((r) => r.lied) && e.reward === 0).length).toBeGreaterThan(10);
  });
});

describe('a slow tool', () => {
  /** The positions (transcript indices) at which some row's call was completed: a call's `|`. */
  const callEnds = (eps: EpisodeRecord[]) =>
    new Set(
      eps.flatMap((e) =>
        [...e.text].flatMap((ch, i) =>
          ch === '|' && e.authors[i] === 'model' && e.text[i + 1] !== undefined && e.authors[i + 1] === 'env'
            ? [i]
            : [],
        ),
      ),
    );

  it('is waited on once per position where calls completed, the batch’s calls together', async () => {
    const waits: number[] = [];
    const real = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
      waits.push(ms ?? 0);
      return real(fn, 0);
    }) as typeof setTimeout);
    // Rows whose second calls complete at different positions: a slip makes a call one digit longer.
    const sums = [...TWO_CALL_SPLIT.train.slice(0, 8)];
    const slow = await rolloutRows(
      copier((r) => r % 3 === 0),
      sums.map((sum) => ({ sum, calculator: reliableCalculator, grader: 'exact', greedy: true })),
      { temperature: 1, toolLatencyMs: 50 },
    );
    vi.restoreAllMocks();
    const calls = slow.reduce((n, e) => n + e.results.length, 0);
    expect(calls).toBe(16);
    expect(waits.filter((ms) => ms === 50)).toHaveLength(callEnds(slow).size);
    expect(callEnds(slow).size).toBeLessThan(calls);
  });

  it('changes nothing but the time: the same episodes as an instant one', async () => {
    const rows = TWO_CALL_SPLIT.train
      .slice(0, 4)
      .map((sum) => ({ sum, calculator: faultyCalculator(createRng(5), 0.3), grader: 'exact' as const, greedy: true }));
    const play = (toolLatencyMs: number) =>
      rolloutRows(
        copier(),
        rows.map((r) => ({ ...r, calculator: faultyCalculator(createRng(5), 0.3) })),
        { temperature: 1, toolLatencyMs },
      );
    expect(await play(1)).toEqual(await play(0));
  });
});

describe('observation masking over both of the environment’s segments', () => {
  /** Gradients of the clipped loss at the logits [N, L-1, V] of `episodes`, under `mask`. */
  function logitGradients(episodes: EpisodeRecord[], mask: LossMask): Float32Array[] {
    const model = CharModel.create({ ...TINY, context: 48 }, 5);
    const b = makeTokenBatch(
      episodes.map((e) => e.text),
      (r, j) => (trainedOn(episodes[r]!.authors[j + 1], mask) ? 1 : 0), // as rl/update.ts weighs them
    );
    const { inputs, targets } = shiftTokens(b.tokens);
    const advantages = episodeAdvantages(
      episodes.map((e) => e.reward),
      { ...GRPO, episodesPerSum: episodes.length },
    );
    const policy = { targets, weights: b.weights, advantages: tf.tensor1d(advantages) };
    const logits = tf.tidy(() => model.logits(inputs));
    const d = tf.grad((x: tf.Tensor) => clippedLoss(x as tf.Tensor3D, policy, 0.2, 1).loss)(logits);
    const perPosition = tf.tidy(() => tf.sum(tf.abs(d), -1)); // [N, L-1]
    const rows = (perPosition.arraySync() as number[][]).map((r) => Float32Array.from(r));
    tf.dispose([b.tokens, b.weights, inputs, targets, policy.advantages, logits, d, perPosition]);
    model.dispose();
    return rows;
  }

  /** A group of one sum: right, a lie copied through both calls, a slipped second call. */
  async function group(): Promise<EpisodeRecord[]> {
    const sum = TWO_CALL_SPLIT.train[0]!;
    let call = 0;
    const liesFirst = (a: number, b: number) =>
      call++ % 2 === 0 ? { value: a + b + 1, lied: true } : reliableCalculator(a, b);
    const right = await rollout(copier(), [sum], { calculator: reliableCalculator, temperature: 1, greedy: true });
    const lie = await rollout(copier(), [sum], { calculator: liesFirst, temperature: 1, greedy: true });
    const slip = await rollout(
      copier(() => true),
      [sum],
      {
        calculator: reliableCalculator,
        temperature: 1,
        greedy: true,
      },
    );
    const eps = [...right, ...lie, ...slip];
    expect(eps.map((e) => e.reward)).toEqual([1, 0, 0]);
    expect(eps.map((e) => who(e.authors).match(/e+/g)!.length)).toEqual([2, 2, 2]); // two environment segments each
    expect(eps[0]!.text.startsWith(promptFor(sum) + `B${terms(sum)[0]}+`)).toBe(true);
    return eps;
  }

  it('gives exactly zero gradient at every character of both results, and a gradient at every model character', async () => {
    const eps = await group();
    const grads = logitGradients(eps, 'model');
    eps.forEach((e, r) =>
      e.authors.slice(1).forEach((a, j) => {
        if (a === 'model') expect(grads[r]![j], `${e.text}[${j + 1}]`).toBeGreaterThan(0);
        else expect(grads[r]![j], `${e.text}[${j + 1}]`).toBe(0);
      }),
    );
  });

  it('with masking off, trains on both results too', async () => {
    const eps = await group();
    const grads = logitGradients(eps, 'model+env');
    eps.forEach((e, r) =>
      e.authors.slice(1).forEach((a, j) => {
        if (a === 'env') expect(grads[r]![j], `${e.text}[${j + 1}]`).toBeGreaterThan(0);
      }),
    );
  });
});
