// The closing claims with the agent held fixed, as the page says them: each claim's verdict is the
// one rl/claims.ts computes from the reference runs' per-seed figures (a flipped verdict fails
// here), its words say why a step is not the plate's way, and the reader's runs are read only when
// made alike.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EpisodeKind } from '../../src/env/episode';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import { claimVerdict } from '../../src/rl/claims';
import { CLAIM_AGENT, CLAIM_LENGTHS, CLAIMS, claimRows, claimTrend } from '../../src/ui/figure/claims/longer-episode';
import { parseReferenceRuns, type ReferenceRun, type ReferenceRuns } from '../../src/ui/figure/reference';
import type { RunView } from '../../src/ui/figure/types';
import { run } from './fixtures';

const SHIPPED: ReferenceRuns = parseReferenceRuns(
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../../public/reference-runs-three-calls.json'), 'utf8')),
);

type Row = ReturnType<typeof claimRows>[number];
const byKey = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r.key, r]));
const at = (row: Row, e: EpisodeKind) => row.lengths.find((l) => l.episode === e)!;

describe('the shipped three-call agent’s reference runs, one, two and three calls', () => {
  const rows = claimRows(SHIPPED, []);
  const k = byKey(rows);

  it('hold the same agent at every length and seed, with the plate’s settings', () => {
    expect(CLAIM_LENGTHS).toEqual(['one-call', 'two-calls', 'three-calls']);
    const held = (episode: EpisodeKind, faulty: boolean) =>
      SHIPPED.runs.filter(
        (r) =>
          r.episode === episode && r.faulty === faulty && (r.masking ?? true) && (r.advantage ?? 'group') === 'group',
      );
    for (const e of CLAIM_LENGTHS)
      for (const faulty of [false, true]) {
        const runs = held(e, faulty);
        expect(runs.map((r: ReferenceRun) => r.seed).sort(), `${e} ${faulty}`).toEqual([1, 2, 3, 4, 5]);
        for (const r of runs) expect(r.agent).toBe(CLAIM_AGENT);
      }
  });

  it('give each claim the verdict computed from its per-seed figures at each length', () => {
    for (const r of rows.filter((x) => x.way !== null))
      expect(r.verdict, r.key).toBe(
        claimVerdict(
          r.way!,
          r.lengths.map((l) => [...l.bySeed.values()]),
        ),
      );
    // As the runs fall: the randomness and credit claims grow, sparsity does not show with this agent.
    expect(rows.map((r) => [r.key, r.verdict])).toEqual([
      ['reward', 'does not grow'],
      ['allFail', 'does not grow'],
      ['allPass', null],
      ['pushedDown', 'grows then flattens'],
      ['pushedDownFaulty', 'grows'],
      ['faultyCap', 'grows'],
    ]);
  });

  it('say why where a step is not the plate’s way: the seeds’ noise, or an agent less able at the shorter length', () => {
    expect(k.faultyCap!.shows).toBe('Grows with every call (0.73 → 0.49 → 0.37).');
    expect(k.pushedDown!.shows).toBe(
      'Grows, then flattens (1.7% → 3.7% → 3.6%): the step from two calls to three calls is within the seeds’ noise.',
    );
    expect(k.allFail!.shows).toMatch(
      /^Does not grow here \(9.7% → 8.8% → 11%\): the step from one call to two calls is within the seeds’ noise; the agent starts less able at one call \(57% held-out\) than at two calls \(63%\)\.$/,
    );
    expect(k.allFail!.against).toEqual(['reference']);
    expect(k.faultyCap!.against).toEqual([]);
  });

  it('draw each claim against the calls: each length’s seeds’ spread around their mean, the table’s figure', () => {
    for (const key of ['allFail', 'pushedDown', 'faultyCap'] as const) {
      const trend = claimTrend(SHIPPED, [], key, false);
      expect(trend.map((p) => p.calls)).toEqual([1, 2, 3]);
      for (const p of trend) {
        expect(p.seeds).toBe(5);
        expect(p.lo!).toBeLessThanOrEqual(p.mean!);
        expect(p.mean!).toBeLessThanOrEqual(p.hi!);
        expect(p.mean).toBeCloseTo(at(k[key]!, p.episode).mean!, 10);
      }
    }
  });
});

/** A reference file of the held-fixed agent: one run per length, seed and calculator, each step the same. */
function flatFile(figures: { e: EpisodeKind; seed: number; faulty: boolean; reward: number; allFail: number }[]) {
  const steps = 40;
  const fill = (x: number) => Array.from({ length: steps }, () => x);
  return parseReferenceRuns({
    note: 'test',
    steps,
    runs: figures.map((f) => ({
      seed: f.seed,
      faulty: f.faulty,
      episode: f.e,
      agent: CLAIM_AGENT,
      heldOut: fill(0.8).concat(0.8),
      meanReward: fill(f.reward),
      zeroSpreadGroups: fill(f.allFail + 0.25),
      allFailGroups: fill(f.allFail),
      correctCallsPushedDown: fill(0.05 * (CLAIM_LENGTHS.indexOf(f.e) + 1)),
    })),
  });
}

/** Seeds 1–3 at every length and calculator; `allFail(e, seed)` and `reward(e, faulty)` as given. */
const file = (allFail: (e: EpisodeKind, seed: number) => number, reward = (_e: EpisodeKind, _f: boolean) => 0.9) =>
  flatFile(
    [1, 2, 3].flatMap((seed) =>
      CLAIM_LENGTHS.flatMap((e) =>
        [false, true].map((faulty) => ({ e, seed, faulty, reward: reward(e, faulty), allFail: allFail(e, seed) })),
      ),
    ),
  );

describe('a claim’s verdict in words', () => {
  it('says the other way, with the means, when a step goes against the plate', () => {
    const k = byKey(
      claimRows(
        file((e, s) => [0.1, 0.05, 0.2][CLAIM_LENGTHS.indexOf(e)]! + s / 1000),
        [],
      ),
    );
    expect(k.allFail!.verdict).toBe('does not grow');
    expect(k.allFail!.shows).toBe(
      'Does not grow here (10% → 5.2% → 20%): the step from one call to two calls goes the other way.',
    );
  });

  it('grows then flattens when the last step is inside the seeds’ spread', () => {
    const k = byKey(
      claimRows(
        file((e, s) => [0.02, 0.1, 0.1][CLAIM_LENGTHS.indexOf(e)]! + s / 100),
        [],
      ),
    );
    expect(k.allFail!.verdict).toBe('grows then flattens');
    expect(k.allFail!.against).toEqual([]);
  });

  it('grows with every call when every step is beyond the noise', () => {
    const faultyCap = (e: EpisodeKind, f: boolean) => (f ? 0.9 * 0.7 ** (CLAIM_LENGTHS.indexOf(e) + 1) : 0.9);
    const k = byKey(
      claimRows(
        file((e) => 0.1 * (CLAIM_LENGTHS.indexOf(e) + 1), faultyCap),
        [],
      ),
    );
    expect(k.allFail!.verdict).toBe('grows');
    expect(k.faultyCap!.shows).toBe('Grows with every call (0.70 → 0.49 → 0.34).');
  });
});

describe('the reader’s runs in the claims', () => {
  const ref = file((e) => 0.1 * (CLAIM_LENGTHS.indexOf(e) + 1));
  const held = (id: number, episode: EpisodeKind, over: Partial<RunView['config']> = {}): RunView => ({
    ...run(id, over.faulty ?? false, 5),
    config: { ...run(id, false, 5).config, agent: CLAIM_AGENT, episode, ...over },
  });

  it('set one run made as ours against the next length’s mean, and say where it goes the other way', () => {
    const mine = held(7, 'one-call'); // its steps leave 12.5% of the groups all-failed
    const k = byKey(claimRows(ref, [mine]));
    expect(at(k.allFail!, 'one-call').yours!.value).toBeCloseTo(0.125, 10);
    expect(k.allFail!.shows).toMatch(/Your run \(one call\) goes the plate’s way: 13% against 20%\.$/);
    const lucky = held(8, 'three-calls');
    const l = byKey(claimRows(ref, [lucky]));
    expect(l.allFail!.against).toContain('yours');
    expect(l.allFail!.shows).toMatch(/Not in your run \(three calls\): 13% against the two-call runs’ 20%/);
  });

  it('set the reader’s runs at several lengths against each other', () => {
    const runs = [held(1, 'one-call'), held(2, 'two-calls'), held(3, 'three-calls')];
    const k = byKey(claimRows(ref, runs));
    expect(k.allFail!.lengths.map((l) => l.yours?.steps)).toEqual([5, 5, 5]);
    // The fixture's runs are alike at every length: flat, so not the plate's way at every step.
    expect(k.allFail!.shows).toMatch(
      /Your runs do not at every step \(one call, two calls, three calls: 13% → 13% → 13%\)/,
    );
  });

  it('read only the held-fixed agent’s runs: the plate’s agent fills no cell', () => {
    for (const r of claimRows(ref, [run(8, false, 5)])) for (const l of r.lengths) expect(l.yours, r.key).toBeNull();
  });

  it('set the reader’s runs beside each other only when made alike: the latest settings decide which', () => {
    const k = byKey(claimRows(ref, [held(9, 'two-calls'), held(10, 'one-call', { advantage: 'raw' })]));
    expect(at(k.reward!, 'one-call').yours).not.toBeNull();
    expect(at(k.reward!, 'two-calls').yours).toBeNull();
  });

  it('fill faulty ÷ reliable from the reader’s two runs at one length, over the steps both have', () => {
    const reliable: RunView = { ...held(1, 'two-calls'), ...{ steps: run(1, false, 10).steps } };
    const faulty: RunView = { ...held(2, 'two-calls', { faulty: true }), steps: run(2, true, 6).steps };
    const k = byKey(claimRows(null, [reliable, faulty]));
    const reliableMean = reliable.steps.slice(1, 7).reduce((s, r) => s + r.meanReward!, 0) / 6;
    expect(at(k.faultyCap!, 'two-calls').yours).toEqual({ value: expect.closeTo(0.5 / reliableMean, 10), steps: 6 });
    expect(at(byKey(claimRows(null, [reliable])).faultyCap!, 'two-calls').yours).toBeNull();
    // Not from runs at two lengths.
    const other = { ...faulty, config: { ...faulty.config, episode: 'three-calls' as const } };
    for (const l of byKey(claimRows(null, [reliable, other])).faultyCap!.lengths) expect(l.yours).toBeNull();
  });

  it('list every claim the table shows', () => {
    expect(CLAIMS.map((c) => c.key)).toEqual([
      'reward',
      'allFail',
      'allPass',
      'pushedDown',
      'pushedDownFaulty',
      'faultyCap',
    ]);
    expect(PLATE_SETTINGS.episode).toBe('one-call');
  });
});
