// The closing claims with the agent held fixed: the shipped reference runs point the plate's way
// on every claim (a re-made agent that flips one fails here), and where a claim does not show —
// at a seed, or in the reader's run — its row says so in words.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import { CLAIM_AGENT, CLAIMS, claimRows, claimTrend } from '../../src/ui/figure/longer-episode';
import { parseReferenceRuns, type ReferenceRun, type ReferenceRuns } from '../../src/ui/figure/reference';
import type { RunView } from '../../src/ui/figure/types';
import { run } from './fixtures';

const shipped = (file: string): ReferenceRuns =>
  parseReferenceRuns(JSON.parse(readFileSync(resolve(import.meta.dirname, '../../public', file), 'utf8')));
const TWO_CALL_AGENT = shipped('reference-runs-two-calls.json');

const byKey = (rows: ReturnType<typeof claimRows>) => Object.fromEntries(rows.map((r) => [r.key, r]));

const at = (row: ReturnType<typeof claimRows>[number], e: 'one-call' | 'two-calls') =>
  row.lengths.find((l) => l.episode === e)!;

describe('the shipped held-fixed agent’s reference runs, length against length', () => {
  const rows = claimRows(TWO_CALL_AGENT, []);

  it('hold the same agent on every length at every seed, with the plate’s settings', () => {
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
      for (const r of held('one-call', faulty)) expect(r.agent).toBe(CLAIM_AGENT);
    }
  });

  it('point the plate’s way on every claim: lower reward, more all-fail groups, more correct calls pushed down, a lower faulty ÷ reliable', () => {
    const claimed = rows.filter((r) => r.way !== null);
    expect(claimed.map((r) => r.key)).toEqual(['reward', 'allFail', 'pushedDown', 'pushedDownFaulty', 'faultyCap']);
    for (const r of claimed) {
      const [one, two] = [at(r, 'one-call').mean!, at(r, 'two-calls').mean!];
      expect(one, r.key).not.toBeNull();
      expect(r.against, `${r.key}: ${r.shows}`).not.toContain('reference');
      if (r.way === 'more') expect(two, r.key).toBeGreaterThan(one);
      else expect(two, r.key).toBeLessThan(one);
    }
  });

  it('say at how many seeds each claim shows, and show the solved groups beside the failed ones without a claim', () => {
    const k = byKey(rows);
    for (const r of rows.filter((x) => x.way !== null))
      expect(r.shows).toMatch(/^Shows (at \d of 5 seeds|in the means)/);
    expect(k.allPass!.way).toBeNull();
    expect(at(k.allPass!, 'one-call').mean! + at(k.allFail!, 'one-call').mean!).toBeGreaterThan(
      at(k.allFail!, 'one-call').mean!,
    ); // the flat groups, split
  });

  it('draw each claim against the calls: each length’s seeds’ spread around their mean, the table’s figure', () => {
    const k = byKey(rows);
    for (const key of ['allFail', 'pushedDown', 'faultyCap'] as const) {
      const trend = claimTrend(TWO_CALL_AGENT, [], key, false);
      expect(trend.map((p) => p.calls)).toEqual([1, 2]);
      for (const p of trend) {
        expect(p.seeds).toBe(5);
        expect(p.lo!).toBeLessThanOrEqual(p.mean!);
        expect(p.mean!).toBeLessThanOrEqual(p.hi!);
        expect(p.mean).toBeCloseTo(at(k[key]!, p.episode).mean!, 10);
      }
    }
  });
});

/** A reference file of the two-call agent with one run per world, seed and calculator, each step the same. */
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
      ...(f.world === 'one-call' && { episode: 'one-call', agent: 'two-calls' }),
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
    expect(at(k.allFail!, 'two-calls').mean).toBeGreaterThan(at(k.allFail!, 'one-call').mean!);
    expect(k.allFail!.against).toEqual(['seed']);
    expect(k.allFail!.shows).toBe(
      'Shows in the means and at 1 of 2 seeds, not at seed 2 (16% → 10%): one seed’s 40 steps of 8 groups are noisy, the mean of five less so.',
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
    expect(k.reward!.shows).toMatch(
      /^Not in our reference means \(one call, two calls: 80% → 90%\), against the plate’s claim\./,
    );
  });

  it('is named in the reader’s run, set against the other world’s mean', () => {
    const mine: RunView = {
      ...run(7, false, 5),
      config: { ...run(7, false, 5).config, episode: 'two-calls', agent: 'own' },
    };
    // The fixture's steps leave 12.5% of the groups all-failed; the one-call mean here is 9%.
    const k = byKey(claimRows(file, [mine]));
    expect(at(k.allFail!, 'two-calls').yours!.value).toBeCloseTo(0.125, 10);
    expect(at(k.allFail!, 'one-call').yours).toBeNull();
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

  it('reads only runs of the held-fixed agent: the plate’s agent fills no cell', () => {
    const plateAgent = run(8, false, 5); // one call, its own agent
    for (const r of claimRows(file, [plateAgent])) for (const l of r.lengths) expect(l.yours, r.key).toBeNull();
  });

  it('sets the reader’s runs beside each other only when made alike: the latest settings decide which', () => {
    const two: RunView = { ...run(9, false, 5), config: { ...run(9, false, 5).config, episode: 'two-calls' } };
    const oneRaw: RunView = {
      ...run(10, false, 5),
      config: { ...run(10, false, 5).config, agent: CLAIM_AGENT, advantage: 'raw' },
    };
    // The latest run (raw reward, one call) is not set beside the group-relative two-call run.
    const k = byKey(claimRows(file, [two, oneRaw]));
    expect(at(k.reward!, 'one-call').yours).not.toBeNull();
    expect(at(k.reward!, 'two-calls').yours).toBeNull();
  });
});

describe('faulty ÷ reliable for the reader', () => {
  it('is filled from the reader’s two runs with the same agent in the same world, over the steps both have', () => {
    const config = { ...run(1, false, 1).config, episode: 'two-calls' as const };
    const reliable: RunView = { ...run(1, false, 10), config: { ...config, faulty: false } };
    const faulty: RunView = { ...run(2, true, 6), config: { ...config, faulty: true } };
    const k = byKey(claimRows(null, [reliable, faulty]));
    const reliableMean = reliable.steps.slice(1, 7).reduce((s, r) => s + r.meanReward!, 0) / 6;
    expect(at(k.faultyCap!, 'two-calls').yours).toEqual({ value: expect.closeTo(0.5 / reliableMean, 10), steps: 6 });
    expect(claimTrend(null, [reliable, faulty], 'faultyCap', false)[1]!.yours!.steps).toBe(6);
    // One calculator alone leaves it empty.
    expect(at(byKey(claimRows(null, [reliable])).faultyCap!, 'two-calls').yours).toBeNull();
  });

  it('is not filled from runs of two worlds', () => {
    const reliable: RunView = { ...run(1, false, 10), config: { ...run(1, false, 10).config, agent: 'two-calls' } };
    const faulty: RunView = {
      ...run(2, true, 10),
      config: { ...run(2, true, 10).config, ...PLATE_SETTINGS, faulty: true, episode: 'two-calls' },
    };
    for (const l of byKey(claimRows(null, [reliable, faulty])).faultyCap!.lengths) expect(l.yours).toBeNull();
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
