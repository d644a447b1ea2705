// The closing claims with the agent held fixed: the shipped reference runs point the plate's way
// on every claim (a re-made agent that flips one fails here), and where a claim does not show —
// at a seed, or in the reader's run — its row says so in words.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import { CLAIMS, claimCurve, claimRows, yourClaimCurve } from '../../src/ui/figure/longer-episode';
import { parseReferenceRuns, type ReferenceRun, type ReferenceRuns } from '../../src/ui/figure/reference';
import type { RunView } from '../../src/ui/figure/types';
import { run } from './fixtures';

const shipped = (file: string): ReferenceRuns =>
  parseReferenceRuns(JSON.parse(readFileSync(resolve(import.meta.dirname, '../../public', file), 'utf8')));
const TWO_CALL_AGENT = shipped('reference-runs-three-calls.json');

const byKey = (rows: ReturnType<typeof claimRows>) => Object.fromEntries(rows.map((r) => [r.key, r]));

describe('the shipped three-call agent’s reference runs, one call against two', () => {
  const rows = claimRows(TWO_CALL_AGENT, []);

  it('hold the same agent on both lengths at every seed, with the plate’s settings', () => {
    const held = (episode: 'one-call' | 'two-calls', faulty: boolean) =>
      TWO_CALL_AGENT.runs.filter(
        (r) =>
          r.episode === episode &&
          (r.agent ?? 'own') !== 'one-call' &&
          r.faulty === faulty &&
          (r.masking ?? true) &&
          (r.advantage ?? 'group') === 'group',
      );
    for (const faulty of [false, true]) {
      const seeds = (rs: ReferenceRun[]) => rs.map((r) => r.seed).sort();
      expect(seeds(held('one-call', faulty))).toEqual([1, 2, 3, 4, 5]);
      expect(seeds(held('two-calls', faulty))).toEqual([1, 2, 3, 4, 5]);
      for (const r of held('one-call', faulty)) expect(r.agent).toBe('three-calls');
    }
  });

  // The three-call agent's runs (public/reference-runs-three-calls.json), one call against two: every
  // claim points the plate's way but the all-fail groups, which the agent, about as able at one call
  // as at two, fails as often at both (9.7% and 8.8%); its row says so. A re-made agent that flips a
  // claim either way fails here.
  const AGAINST = ['allFail'];

  it('point the plate’s way on every claim but the all-fail groups: lower reward, more correct calls pushed down, a lower faulty ÷ reliable', () => {
    const claimed = rows.filter((r) => r.way !== null);
    expect(claimed.map((r) => r.key)).toEqual(['reward', 'allFail', 'pushedDown', 'pushedDownFaulty', 'faultyCap']);
    for (const r of claimed) {
      expect(r.one, r.key).not.toBeNull();
      const plateWay = r.way === 'more' ? r.two! > r.one! : r.two! < r.one!;
      expect(plateWay, `${r.key}: ${r.shows}`).toBe(!AGAINST.includes(r.key));
      expect(r.against.includes('reference'), `${r.key}: ${r.shows}`).toBe(AGAINST.includes(r.key));
    }
  });

  it('say at how many seeds each claim shows, or that it does not, and show the solved groups beside the failed ones without a claim', () => {
    const k = byKey(rows);
    for (const r of rows.filter((x) => x.way !== null))
      expect(r.shows).toMatch(
        AGAINST.includes(r.key) ? /^Not in our reference runs: two calls/ : /^Shows (at \d of 5 seeds|in the means)/,
      );
    expect(k.allPass!.way).toBeNull();
    expect(k.allPass!.one! + k.allFail!.one!).toBeGreaterThan(k.allFail!.one!); // the flat groups, split
  });

  it('draw each claim per step for both worlds, the cap’s last point being the table’s figure', () => {
    for (const key of ['allFail', 'pushedDown', 'faultyCap'] as const) {
      for (const world of ['one-call', 'two-calls'] as const) {
        const c = claimCurve(TWO_CALL_AGENT, key, world, false);
        expect(c.band).toHaveLength(40);
        expect(c.mean).toHaveLength(40);
        for (const b of c.band) expect(b.lo).toBeLessThanOrEqual(b.hi);
      }
    }
    const k = byKey(rows);
    expect(claimCurve(TWO_CALL_AGENT, 'faultyCap', 'two-calls', false).mean.at(-1)![1]).toBeCloseTo(
      k.faultyCap!.two!,
      10,
    );
    expect(claimCurve(TWO_CALL_AGENT, 'faultyCap', 'one-call', false).mean.at(-1)![1]).toBeCloseTo(
      k.faultyCap!.one!,
      10,
    );
  });
});

/** A reference file of the three-call agent with one run per world, seed and calculator, each step the same. */
function flatFile(
  figures: { world: 'one-call' | 'two-calls'; seed: number; faulty: boolean; reward: number; allFail: number }[],
): ReferenceRuns {
  const steps = 40;
  const fill = (x: number) => Array.from({ length: steps }, () => x);
  return parseReferenceRuns({
    note: 'test',
    episode: 'two-calls',
    steps,
    runs: figures.map((f) => ({
      seed: f.seed,
      faulty: f.faulty,
      ...(f.world === 'one-call' && { episode: 'one-call', agent: 'three-calls' }),
      heldOut: fill(0.8).concat(0.8),
      meanReward: fill(f.reward),
      zeroSpreadGroups: fill(f.allFail + 0.25),
      allFailGroups: fill(f.allFail),
      correctCallsPushedDown: fill(f.world === 'two-calls' ? 0.1 : 0.05),
    })),
  });
}

describe('a claim that does not show', () => {
  // Seed 2's two-call runs fail less often than its one-call runs: against the plate at that seed only.
  const file = flatFile(
    [1, 2].flatMap((seed) =>
      [false, true].flatMap((faulty) => [
        { world: 'one-call' as const, seed, faulty, reward: faulty ? 0.6 : 0.9, allFail: seed === 2 ? 0.16 : 0.02 },
        { world: 'two-calls' as const, seed, faulty, reward: faulty ? 0.4 : 0.8, allFail: 0.1 },
      ]),
    ),
  );

  it('is named at its seed, with both figures, though the means point the plate’s way', () => {
    const k = byKey(claimRows(file, []));
    expect(k.allFail!.two).toBeGreaterThan(k.allFail!.one!);
    expect(k.allFail!.against).toEqual(['seed']);
    expect(k.allFail!.shows).toBe(
      'Shows in the means and at 1 of 2 seeds, not at seed 2 (two calls 10%, one call 16%): one seed’s 40 steps of 8 groups are noisy, the mean of five less so.',
    );
    expect(k.reward!.shows).toBe('Shows at 2 of 2 seeds.');
  });

  it('is named in the reference means when the means point against the plate', () => {
    const against = flatFile([
      { world: 'one-call', seed: 1, faulty: false, reward: 0.8, allFail: 0.1 },
      { world: 'two-calls', seed: 1, faulty: false, reward: 0.9, allFail: 0.1 },
    ]);
    const k = byKey(claimRows(against, []));
    expect(k.reward!.against).toContain('reference');
    expect(k.reward!.shows).toMatch(/^Not in our reference runs: two calls 90% against one call’s 80%/);
  });

  it('is named in the reader’s run, set against the other world’s mean', () => {
    const mine: RunView = {
      ...run(7, false, 5),
      config: { ...run(7, false, 5).config, episode: 'two-calls', agent: 'own' },
    };
    // The fixture's steps leave 12.5% of the groups all-failed; the one-call mean here is 9%.
    const k = byKey(claimRows(file, [mine]));
    expect(k.allFail!.yours).toBeCloseTo(0.125, 10);
    expect(k.allFail!.shows).toMatch(/Your run \(two calls\) shows it too: 13% against 9%\./);
    const lucky: RunView = {
      ...mine,
      steps: mine.steps.map((s) => (s.step === 0 ? s : { ...s, allFailGroups: 0, allPassGroups: 0.25 })),
    };
    const l = byKey(claimRows(file, [lucky]));
    expect(l.allFail!.against).toContain('yours');
    expect(l.allFail!.shows).toMatch(
      /Not in your run \(two calls\): 0% against the one-call runs’ 9% — one run set against a mean of five seeds/,
    );
  });

  it('reads only runs of the same agent with the plate’s settings: the plate’s agent fills no cell', () => {
    const plateAgent = run(8, false, 5); // one call, its own agent
    const rawReward: RunView = {
      ...run(9, false, 5),
      config: { ...run(9, false, 5).config, agent: 'three-calls', advantage: 'raw' },
    };
    for (const r of claimRows(file, [plateAgent, rawReward])) expect(r.yours, r.key).toBeNull();
  });
});

describe('faulty ÷ reliable for the reader', () => {
  it('is filled from the reader’s two runs with the same agent in the same world, over the steps both have', () => {
    const config = { ...run(1, false, 1).config, episode: 'two-calls' as const };
    const reliable: RunView = { ...run(1, false, 10), config: { ...config, faulty: false } };
    const faulty: RunView = { ...run(2, true, 6), config: { ...config, faulty: true } };
    const k = byKey(claimRows(null, [reliable, faulty]));
    const reliableMean = reliable.steps.slice(1, 7).reduce((s, r) => s + r.meanReward!, 0) / 6;
    expect(k.faultyCap!.yours).toBeCloseTo(0.5 / reliableMean, 10);
    expect(yourClaimCurve([reliable, faulty], 'faultyCap', false)).toHaveLength(6);
    // One calculator alone leaves it empty.
    expect(byKey(claimRows(null, [reliable])).faultyCap!.yours).toBeNull();
  });

  it('is not filled from runs of two worlds', () => {
    const reliable: RunView = { ...run(1, false, 10), config: { ...run(1, false, 10).config, agent: 'three-calls' } };
    const faulty: RunView = {
      ...run(2, true, 10),
      config: { ...run(2, true, 10).config, ...PLATE_SETTINGS, faulty: true, episode: 'two-calls' },
    };
    expect(byKey(claimRows(null, [reliable, faulty])).faultyCap!.yours).toBeNull();
  });

  it('lists every claim the table shows', () => {
    expect(CLAIMS.map((c) => c.key)).toEqual([
      'reward',
      'allFail',
      'allPass',
      'pushedDown',
      'pushedDownFaulty',
      'faultyCap',
    ]);
  });
});
