// Playing an episode by hand, for the tests of each world: a scripted model, character by
// character, each answered by what the environment owes.
import { expect } from 'vitest';
import { reliableCalculator } from '../../src/env/calculator';
import { Episode, promptFor } from '../../src/env/episode';
import { REWARD_WRONG } from '../../src/env/grader';
import { OPERAND_MAX, OPERAND_MIN, sumKey, terms, type Sum, type SumSplit } from '../../src/env/sums';

/** Feeds the model's characters, each answered by what the environment owes; returns the whole transcript. */
export function play(ep: Episode, modelChars: string): string {
  let text = promptFor(ep.sum);
  for (const ch of modelChars) {
    if (ep.done) break;
    text += ch + ep.feed(ch);
  }
  return text;
}

/** Played with the reliable calculator, `modelChars` end the episode unpaid, for `reason`. */
export function expectUnpaidEnd(sum: Sum, modelChars: string, reason: string): void {
  const ep = new Episode(sum, reliableCalculator);
  play(ep, modelChars);
  expect(ep.done).toBe(true);
  expect(ep.reason).toBe(reason);
  expect(ep.reward).toBe(REWARD_WRONG);
}

/** An agent that calls right and copies every result: what the demonstrations teach. */
export function playCopying(ep: Episode): string {
  const [first, ...rest] = terms(ep.sum);
  let acc = first!;
  let text = promptFor(ep.sum);
  for (const t of rest) {
    const call = `B${acc}+${t}|`;
    let result = '';
    for (const ch of call) result += ep.feed(ch);
    text += call + result;
    acc = Number(result.slice(0, -1));
  }
  for (const ch of `${acc}|`) ep.feed(ch);
  return text + `${acc}|`;
}

/** A world's split holds 100 distinct sums of `termCount` two-digit terms: 70 training (30 demonstrations, 40 validation) and 30 held-out. */
export function expectSplitOf(s: SumSplit, termCount: number): void {
  const keys = (xs: Sum[]) => new Set(xs.map(sumKey));
  expect([s.train.length, s.demonstrations.length, s.validation.length, s.heldOut.length]).toEqual([70, 30, 40, 30]);
  expect(keys([...s.train, ...s.heldOut]).size).toBe(100);
  expect(keys([...s.demonstrations, ...s.validation])).toEqual(keys(s.train));
  for (const x of [...s.train, ...s.heldOut]) {
    expect(terms(x)).toHaveLength(termCount);
    for (const t of terms(x)) expect(t >= OPERAND_MIN && t <= OPERAND_MAX).toBe(true);
  }
}
