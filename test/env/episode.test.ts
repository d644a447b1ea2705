import { describe, expect, it } from 'vitest';
import { faultyCalculator, reliableCalculator } from '../../src/env/calculator';
import { demonstrationFor, Episode, MAX_CALL_LENGTH } from '../../src/env/episode';
import { REWARD_CORRECT, REWARD_WRONG } from '../../src/env/grader';
import { createRng } from '../../src/lib/rng';
import { expectUnpaidEnd } from './play';

/** Feeds the model's characters; returns what the environment appended. */
function play(ep: Episode, modelChars: string): string {
  let env = '';
  for (const ch of modelChars) {
    if (ep.done) break;
    env += ep.feed(ch);
  }
  return env;
}

describe('an episode', () => {
  it('runs the call, appends the calculator result, and rewards an exact answer', () => {
    const ep = new Episode({ a: 23, b: 45 }, reliableCalculator);
    expect(play(ep, 'B23+45|')).toBe('68|');
    expect(ep.segment).toBe('answer');
    play(ep, '68|');
    expect(ep.done).toBe(true);
    expect(ep.reason).toBe('answered');
    expect(ep.reward).toBe(REWARD_CORRECT);
  });

  it('gives reward 0 to a wrong answer, even one that copies a lying calculator', () => {
    const alwaysLies = faultyCalculator(createRng(1), 1);
    const ep = new Episode({ a: 23, b: 45 }, alwaysLies);
    const result = play(ep, 'B23+45|');
    expect(result).not.toBe('68|');
    play(ep, result);
    expect(ep.reason).toBe('answered');
    expect(ep.reward).toBe(REWARD_WRONG);
    expect(ep.result?.lied).toBe(true);
  });

  it.each([
    ['68|', 'no call'],
    ['B23+|', 'malformed call'],
    ['B2345|', 'malformed call'],
    ['B23=45|', 'malformed call'],
    ['B23++45|', 'malformed call'],
    ['B1234+5|', 'malformed call'],
    ['B23+45' + '5'.repeat(MAX_CALL_LENGTH), 'over-long call'],
    ['B23+45|6+8|', 'malformed answer'],
    ['B23+45||', 'malformed answer'],
    ['B23+45|68888|', 'over-long answer'],
  ])('ends %j with reward 0 and the reason "%s"', (chars, reason) => {
    expectUnpaidEnd({ a: 23, b: 45 }, chars, reason);
  });

  it('ends at the context limit with reward 0', () => {
    const ep = new Episode({ a: 23, b: 45 }, reliableCalculator);
    play(ep, 'B23+45|6');
    ep.stopAtContextLimit();
    expect(ep.reason).toBe('context full');
    expect(ep.reward).toBe(REWARD_WRONG);
  });

  it('accepts a call with slipped operands and calls the calculator on them', () => {
    const ep = new Episode({ a: 23, b: 45 }, reliableCalculator);
    expect(play(ep, 'B23+44|')).toBe('67|');
  });
});

describe('a demonstration', () => {
  it('marks the prompt, the model’s call and answer, and the environment’s result', () => {
    const d = demonstrationFor({ a: 23, b: 45 });
    expect(d.text).toBe('^23+45=B23+45|68|68|');
    const who = d.authors.map((a) => a[0]).join('');
    expect(who).toBe('pppppppmmmmmmmeeemmm');
  });
});
