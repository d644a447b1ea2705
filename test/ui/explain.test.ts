// One GRPO step taken apart, in Node: the group's arithmetic against hand-computed cases and
// against the trainer's own advantages, the push's names and tones per character, the reader's
// sum read from what they typed.
import { beforeAll, describe, expect, it } from 'vitest';
import { runWorkshop } from '../../src/node/run-workshop';
import { GRPO } from '../../src/config';
import { toView } from '../../src/protocol/episode-view';
import { parseSum, sumKindText } from '../../src/ui/figure/step/parse-sum';
import { runJson } from '../../src/ui/figure/export/export';
import { groupArithmetic } from '../../src/ui/figure/step/group-arithmetic';
import { episodeLine, groupLede, pushChars } from '../../src/ui/figure/step/push-view';
import { groupAdvantages } from '../../src/rl/advantages';
import { useWasm } from '../tf';
import { episode, run } from './fixtures';

beforeAll(useWasm);

const OPTS = { scaleByStd: true, stdEps: 1e-4 };

describe('the group’s arithmetic', () => {
  it('writes five of eight out with the mean, the standard deviation and each advantage', () => {
    const rewards = [1, 1, 0, 1, 0, 1, 1, 0];
    const g = groupArithmetic(rewards, groupAdvantages(rewards, OPTS), 'group', OPTS);
    // mean 5/8 = 0.625; population std √(0.625 · 0.375) = 0.48412; (1 − 0.625)/0.48422 = 0.7744
    expect(g.meanText).toBe('mean = 5 / 8 = 0.625');
    expect(g.stdText).toMatch(
      /^standard deviation = 0\.484, the population's \(÷ n = 8\); the trainer divides by it plus 0\.0001/,
    );
    expect(g.lines[0]!.text).toBe('advantage = (1 − 0.625) / 0.484 = +0.77');
    expect(g.lines[2]!.text).toBe('advantage = (0 − 0.625) / 0.484 = −1.29');
    expect(g.taughtNothing).toBe(false);
    expect(g.summary).toBe(
      'Five of eight scored 1: the ones above the mean are pushed up, the ones below pushed down, and the advantages add up to 0.',
    );
  });

  it('says plainly that a group whose rewards are all equal taught nothing', () => {
    for (const r of [1, 0]) {
      const rewards = Array<number>(8).fill(r);
      const g = groupArithmetic(rewards, groupAdvantages(rewards, OPTS), 'group', OPTS);
      expect(g.taughtNothing).toBe(true);
      expect(g.lines.map((l) => l.text)).toEqual(Array(8).fill(`advantage = ${r} − ${r} = 0`));
      expect(g.summary).toBe(
        `All eight scored ${r}: every reward equals the mean, so every advantage is 0 — this sum taught nothing this step.`,
      );
    }
  });

  it('with the raw reward: advantage = reward, and only a group of zeros teaches nothing', () => {
    const g = groupArithmetic([1, 0, 1, 1, 0, 0, 0, 0], [1, 0, 1, 1, 0, 0, 0, 0], 'raw', OPTS);
    expect(g.lines.map((l) => l.text).slice(0, 2)).toEqual(['advantage = reward = 1', 'advantage = reward = 0']);
    expect([g.meanText, g.stdText, g.taughtNothing]).toEqual([null, null, false]);
    const ones = groupArithmetic(Array(8).fill(1), Array(8).fill(1), 'raw', OPTS);
    expect(ones.taughtNothing).toBe(false);
    const zeros = groupArithmetic(Array(8).fill(0), Array(8).fill(0), 'raw', OPTS);
    expect(zeros.summary).toBe(
      'With the raw reward, all eight scored 0: every advantage is 0, so this sum taught nothing this step.',
    );
  });

  it('one success in eight: +2.64 for it and −0.38 for the rest', () => {
    const rewards = [0, 0, 0, 1, 0, 0, 0, 0];
    const g = groupArithmetic(rewards, groupAdvantages(rewards, OPTS), 'group', OPTS);
    // 0.875 / (√7/8 + 0.0001) = 0.875 / 0.33082 = 2.645
    expect(g.lines[3]!.text).toBe('advantage = (1 − 0.125) / 0.331 = +2.64');
    expect(g.lines[0]!.text).toBe('advantage = (0 − 0.125) / 0.331 = −0.38');
    expect(g.summary.startsWith('One of eight scored 1')).toBe(true);
  });

  it('names the population standard deviation it divides by, and what TRL’s n − 1 would give for the group shown', () => {
    const rewards = [1, 1, 1, 0, 1, 1, 1, 1];
    const g = groupArithmetic(rewards, groupAdvantages(rewards, OPTS), 'group', OPTS);
    // population √(0.875 · 0.125) = 0.331; torch's std() √(8/7) · 0.331 = 0.354;
    // (1 − 0.875) / 0.3537 = +0.35, (0 − 0.875) / 0.3537 = −2.47, where ÷ 0.3308 gives +0.38, −2.64
    expect(g.stdText).toMatch(/^standard deviation = 0\.331, the population's \(÷ n = 8\)/);
    expect(g.trlText).toBe(
      "TRL's GRPOTrainer divides by torch's std(), which divides by n − 1 = 7: 0.354 here, so it would give +0.35 and −2.47 where this trainer gives +0.38 and −2.64.",
    );
    const same = Array<number>(8).fill(1);
    expect(groupArithmetic(same, groupAdvantages(same, OPTS), 'group', OPTS).trlText).toBeNull();
    expect(groupArithmetic(rewards, rewards, 'raw', OPTS).trlText).toBeNull();
  });

  it('agrees with the advantages the trainer gave every group of real steps, both kinds', async () => {
    for (const advantage of ['group', 'raw'] as const) {
      const { records } = await runWorkshop({ start: 'agent', seed: 2, steps: 3, advantage });
      for (const r of records.slice(1)) {
        for (let k = 0; k < r.episodes.length; k += 8) {
          const eps = r.episodes.slice(k, k + 8);
          const g = groupArithmetic(
            eps.map((e) => e.reward),
            eps.map((e) => e.advantage),
            advantage,
            GRPO,
          );
          eps.forEach((e, i) => {
            // The arithmetic's own numbers reproduce the trainer's advantage to the last bit.
            const formula = advantage === 'raw' ? e.reward : g.taughtNothing ? 0 : (e.reward - g.mean) / g.divisor;
            expect(e.advantage).toBe(formula);
            expect(
              g.lines[i]!.text.endsWith(
                advantage === 'raw'
                  ? `= ${e.reward}`
                  : g.taughtNothing
                    ? '= 0'
                    : `${e.advantage > 0 ? '+' : '−'}${Math.abs(e.advantage).toFixed(2)}`,
              ),
            ).toBe(true);
          });
        }
      }
    }
  });
});

describe('the push, character by character', () => {
  // ^23+45=B23+45|68|68| with each model character 0.5 → 0.8 and each environment one 0.9 → 0.6.
  const logp = (text: string, authors: string) => {
    const b = [...text.slice(1)].map((_, j) => Math.log(authors[j + 1] === 'e' ? 0.9 : 0.5));
    const a = [...text.slice(1)].map((_, j) => Math.log(authors[j + 1] === 'e' ? 0.6 : 0.8));
    return { before: Float32Array.from(b), after: Float32Array.from(a) };
  };
  const e = episode();
  const pushed = { ...e, logp: logp(e.text, e.authors) };

  it('names each model character with its probability before and after, and marks masked environment characters', () => {
    const chars = pushChars(pushed);
    expect(chars.map((c) => c.ch).join('')).toBe('B23+45|68|68|');
    expect(chars[0]).toMatchObject({ index: 7, name: 'B 0.50 → 0.80', shift: 'up', strong: true, trained: true });
    expect(chars.filter((c) => c.author === 'e').map((c) => c.name)).toEqual([
      '6 not trained on',
      '8 not trained on',
      '| not trained on',
    ]);
    expect(chars.find((c) => c.author === 'e')!.detail).toMatch(/not trained on — observation masking/);
  });

  it('gives the environment’s characters the same treatment when the record says they were trained on (masking off)', () => {
    const off = { ...pushed, trained: '00000001111111111111' };
    expect(
      pushChars(off)
        .filter((c) => c.author === 'e')
        .map((c) => [c.name, c.shift]),
    ).toEqual([
      ['6 0.90 → 0.60', 'down'],
      ['8 0.90 → 0.60', 'down'],
      ['| 0.90 → 0.60', 'down'],
    ]);
  });

  it('says how much more likely an episode’s model characters became, and whether its group was pushed its rewards’ way', () => {
    expect(episodeLine(pushed)).toBe('its characters 1.60× as likely on average');
    expect(episodeLine(e)).toBeNull();
    const up = groupLede([
      { ...pushed, advantage: 1 },
      { ...pushed, advantage: -0.5 },
    ])!;
    expect(up.score).toBeCloseTo(0.5 * Math.log(1.6), 6);
    expect(up.text).toMatch(/= 0\.235 > 0: the update pushed this group the way its rewards say\.$/);
    expect(groupLede([{ ...pushed, advantage: -1 }])!.text).toMatch(
      /= −0\.470 ≤ 0: this group was pushed against its rewards/,
    );
    expect(groupLede([{ ...pushed, advantage: 0 }])!.text).toMatch(/no advantage, so no push/);
  });

  it('reads the trainer’s record through the page’s view unchanged', async () => {
    const { records } = await runWorkshop({ start: 'agent', seed: 1, steps: 1, masking: false });
    const rec = records[1]!.episodes[0]!;
    const view = toView(rec, rec.advantage, 'model+env');
    const chars = pushChars(view);
    expect(chars.every((c) => c.trained)).toBe(true);
    expect(chars[0]!.before).toBeCloseTo(Math.exp(rec.logp.before[chars[0]!.index - 1]!), 6);
  });
});

describe('the run as JSON', () => {
  it('writes the shown step’s log-probs as plain arrays', () => {
    const r = run(1, false, 1);
    const shown = {
      ...r.steps[1]!,
      episodes: [
        { ...episode(), logp: { before: Float32Array.of(Math.log(0.5), -0.25), after: Float32Array.of(-0.1, -0.2) } },
      ],
    };
    const json = JSON.parse(runJson(r, { plate: 'XXVI.3', backend: 'wasm', shown }));
    expect(json.episodes.episodes[0].logp).toEqual({ before: [-0.693147, -0.25], after: [-0.1, -0.2] });
  });
});

describe('the reader’s sum', () => {
  it('reads two numbers from 10 to 99 joined by +, spaces allowed', () => {
    expect(parseSum('57+38')).toEqual({ sum: { a: 57, b: 38 } });
    expect(parseSum(' 10 + 99 ')).toEqual({ sum: { a: 10, b: 99 } });
  });

  it('says what is wrong, in words, for everything else', () => {
    expect(parseSum('')).toEqual({
      error: 'Type a sum first: two whole numbers from 10 to 99 joined by +, such as 57+38.',
    });
    expect(parseSum('5+')).toEqual({ error: '“5+” needs a second number after the +, such as 57+38.' });
    expect(parseSum('+38')).toEqual({ error: '“+38” needs a first number before the +, such as 57+38.' });
    expect(parseSum('100+3')).toEqual({
      error: 'The agent knows sums of two whole numbers from 10 to 99 (the world’s range): 100 and 3 are outside it.',
    });
    expect(parseSum('57+9')).toEqual({
      error: 'The agent knows sums of two whole numbers from 10 to 99 (the world’s range): 9 is outside it.',
    });
    for (const bad of ['abc', '57-38', '5.5+38', '57+38+1', 'fifty+38'])
      expect(parseSum(bad)).toEqual({ error: expect.stringMatching(/is not a sum the agent can read/) });
  });

  it('says a long sum is too long, quoting at most a short prefix of it, however long', () => {
    const long = '1'.repeat(10_000);
    expect(parseSum(long)).toEqual({
      error:
        '“111111111111…” is too long: 10,000 characters, where a sum the agent can read has at most 16. Write two whole numbers from 10 to 99 joined by +, such as 57+38.',
    });
    // A sum of 500 characters, + and all, is too long, not a sum missing its second number.
    const sum500 = `${'1'.repeat(250)}+${'2'.repeat(249)}`;
    expect(parseSum(sum500)).toEqual({
      error: expect.stringMatching(/^“111111111111…” is too long: 500 characters, where a sum the agent can read/),
    });
    expect(parseSum('fifty-seven+38')).toEqual({
      error:
        '“fifty-seven+…” is not a sum the agent can read: write two whole numbers from 10 to 99 joined by +, such as 57+38.',
    });
    expect(parseSum(' 57  +  38 ')).toEqual({ sum: { a: 57, b: 38 } }); // the room left for spaces
  });

  it('says where a sum stands in the split', () => {
    expect(sumKindText({ a: 57, b: 38 }, 'new', false)).toBe(
      '57+38 is a new sum: in neither the training nor the held-out set.',
    );
    expect(sumKindText({ a: 23, b: 45 }, 'training', true)).toMatch(
      /^23\+45 is a training sum: .*, and one of the 30 demonstrations/,
    );
  });
});
