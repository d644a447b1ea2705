// The three-call world: four-term sums, three calculator calls in order, one answer — each segment
// under the one-call world's rules, graded exactly, the faulty calculator lying call by call.
import { describe, expect, it } from 'vitest';
import { faultyCalculator, reliableCalculator, type Calculator } from '../../src/env/calculator';
import {
  callsFor,
  demonstrationFor,
  Episode,
  longestEpisode,
  MAX_CALL_LENGTH,
  REWARD_CORRECT,
} from '../../src/env/episode';
import { REWARD_WRONG } from '../../src/env/grader';
import { drawSplit, SPLIT, sumKey, terms, THREE_CALL_SPLIT, total, TWO_CALL_SPLIT } from '../../src/env/sums';
import { AGENTS, WORLDS } from '../../src/env/world';
import { createRng } from '../../src/lib/rng';
import { expectSplitOf, expectUnpaidEnd, play, playCopying } from './play';

const SUM = { a: 23, b: 45, c: 17, d: 31 };

describe('the three-call demonstrations', () => {
  it('add each term to the result so far in three calls, and answer with the last result', () => {
    const d = demonstrationFor(SUM);
    expect(d.text).toBe('^23+45+17+31=B23+45|68|B68+17|85|B85+31|116|116|');
    expect(d.authors.map((a) => a[0]).join('')).toBe(
      'ppppppppppppp' + 'mmmmmmm' + 'eee' + 'mmmmmmm' + 'eee' + 'mmmmmmm' + 'eeee' + 'mmmm',
    );
    expect(WORLDS['three-calls'].example).toBe(d.text);
  });

  it('are what a copying agent plays with the reliable calculator, and each earns the reward', () => {
    for (const s of THREE_CALL_SPLIT.demonstrations) {
      const ep = new Episode(s, reliableCalculator);
      expect(playCopying(ep)).toBe(demonstrationFor(s).text);
      expect(ep.reward).toBe(REWARD_CORRECT);
    }
  });
});

describe('a three-call episode', () => {
  it('runs the three calls in order, appends each result, and rewards the exact total', () => {
    const ep = new Episode(SUM, reliableCalculator);
    expect(ep.calls).toBe(3);
    expect(play(ep, 'B23+45|B68+17|B85+31|116|')).toBe('^23+45+17+31=B23+45|68|B68+17|85|B85+31|116|116|');
    expect(ep.reason).toBe('answered');
    expect(ep.reward).toBe(REWARD_CORRECT);
    expect(ep.results.map((r) => r.value)).toEqual([68, 85, 116]);
    expect(ep.result).toEqual({ value: 116, lied: false });
  });

  it('stays in its calls until the third is written, then answers', () => {
    const ep = new Episode(SUM, reliableCalculator);
    play(ep, 'B23+45|');
    expect(ep.segment).toBe('call');
    play(ep, 'B68+17|');
    expect(ep.segment).toBe('call');
    play(ep, 'B85+31|');
    expect(ep.segment).toBe('answer');
  });

  it('calls the calculator with each call’s operands in the order written', () => {
    const asked: [number, number][] = [];
    const recording: Calculator = (a, b) => (asked.push([a, b]), reliableCalculator(a, b));
    play(new Episode(SUM, recording), 'B23+45|B68+17|B85+31|116|');
    expect(asked).toEqual([
      [23, 45],
      [68, 17],
      [85, 31],
    ]);
  });

  it.each([
    ['B23+45|B68+17|116|', 'no call'],
    ['B23+45|B68+17|B85+|', 'malformed call'],
    ['B23+45|B68+17|B85=31|', 'malformed call'],
    ['B23+45|B68+17|B85+31' + '1'.repeat(MAX_CALL_LENGTH), 'over-long call'],
    ['B23+45|B68+17|B85+31||', 'malformed answer'],
  ])('ends %j at the third call or after it with reward 0 and the reason "%s"', (chars, reason) => {
    expectUnpaidEnd(SUM, chars, reason);
  });

  it('keeps the first two results when a malformed third call ends it, and feeds it nothing more', () => {
    const ep = new Episode(SUM, reliableCalculator);
    play(ep, 'B23+45|B68+17|B85+x');
    expect(ep.reason).toBe('malformed call');
    expect(ep.results.map((r) => r.value)).toEqual([68, 85]);
    expect(() => ep.feed('|')).toThrow(/already over/);
  });

  it('pays only the true total, not the second result', () => {
    const ep = new Episode(SUM, reliableCalculator);
    play(ep, 'B23+45|B68+17|B85+31|85|');
    expect(ep.reason).toBe('answered');
    expect(ep.reward).toBe(REWARD_WRONG);
  });

  it('reaches the longest transcript the rules allow, 60 characters, and its agent’s context of 64 holds it', () => {
    const ep = new Episode(SUM, () => ({ value: 1998, lied: false }));
    const text = play(ep, 'B999+999|B999+999|B999+999|1998|');
    expect(ep.reason).toBe('answered');
    expect(text).toHaveLength(longestEpisode(3));
    expect(longestEpisode(3)).toBe(60);
    expect(AGENTS[WORLDS['three-calls'].agent].context).toBe(64);
    for (const s of THREE_CALL_SPLIT.train) expect(demonstrationFor(s).text.length).toBeLessThanOrEqual(60);
  });
});

describe('the faulty calculator over three calls', () => {
  it('lies at each call on its own, about 30% each, so a copying agent meets no lie about 0.7³ of the time', () => {
    const calculator = faultyCalculator(createRng(12), 0.3);
    const lies = [0, 0, 0];
    let n = 0;
    let rewarded = 0;
    let noLie = 0;
    let allThree = 0;
    for (let i = 0; i < 20_000; i++) {
      const ep = new Episode(THREE_CALL_SPLIT.train[i % 70]!, calculator);
      playCopying(ep);
      const lied = ep.results.map((r) => r.lied);
      expect(lied).toHaveLength(3);
      lied.forEach((l, k) => (lies[k]! += l ? 1 : 0));
      if (lied.every(Boolean)) allThree++;
      if (!lied.some(Boolean)) noLie++;
      n++;
      rewarded += ep.reward;
    }
    for (const l of lies) expect(Math.abs(l / n - 0.3)).toBeLessThan(0.01);
    expect(Math.abs(allThree / n - 0.3 ** 3)).toBeLessThan(0.005); // independent calls
    expect(Math.abs(noLie / n - 0.7 ** 3)).toBeLessThan(0.01);
    // Paid at least then; a little more, where a later lie happens to undo an earlier one.
    expect(rewarded / n).toBeGreaterThanOrEqual(noLie / n);
    expect(rewarded / n).toBeLessThan(0.4);
  });
});

describe('the three-call split', () => {
  it('holds 100 distinct four-term sums: 70 training (30 demonstrations, 40 validation) and 30 held-out', () => {
    expectSplitOf(THREE_CALL_SPLIT, 4);
  });

  it('is exactly what the committed generator draws from its own committed seed', () => {
    expect(drawSplit(THREE_CALL_SPLIT.seed, 4)).toEqual(THREE_CALL_SPLIT);
    expect(new Set([SPLIT.seed, TWO_CALL_SPLIT.seed, THREE_CALL_SPLIT.seed]).size).toBe(3);
  });

  it('keys, totals and counts the calls of a sum by all four terms', () => {
    expect(terms(SUM)).toEqual([23, 45, 17, 31]);
    expect(sumKey(SUM)).toBe('23+45+17+31');
    expect(total(SUM)).toBe(116);
    expect(callsFor(SUM)).toBe(3);
  });
});
