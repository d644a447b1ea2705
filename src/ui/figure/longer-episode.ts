/**
 * The plate's closing claims as figures, with the agent held fixed: the two-call agent on
 * one-call sums beside the same agent on two-call sums, so the two columns differ in the episode
 * alone. From the two-call agent's reference runs (one file holds both: the plate's settings,
 * seeds as the file holds them) and from the reader's runs with that agent. Pure: from the runs
 * to what the figure's table and small charts say, and whether each claim shows, in words.
 *
 * Every figure is a mean over a run's GRPO steps (a reference run's 40; the reader's so far),
 * then over the seeds:
 *   reward            sampled reward, reliable calculator — sparser rewards: lower with two calls
 *   allFail           groups whose 8 episodes all failed, reliable — no reward to learn from: more
 *   allPass           groups all 8 of which were paid, reliable — solved: shown beside, no claim
 *   pushedDown        correct first calls given a negative advantage, reliable — credit spread: more
 *   pushedDownFaulty  the same with the faulty calculator: more
 *   faultyCap         the faulty calculator's reward over the reliable one's — each call can lie,
 *                     so the cap falls with the calls (~0.7 a call): lower
 */
import { mean } from 'd3';
import { agentOf } from '../../env/world';
import { PLATE_SETTINGS, type RunSettings } from '../../pipeline/settings';
import type { GrpoStepView } from '../../protocol/episode-view';
import { pct } from '../format';
import { curveOf, runsLike, type ReferenceMetric, type ReferenceRun, type ReferenceRuns } from './reference';
import type { BandPoint, RunView } from './types';

export type ClaimKey = 'reward' | 'allFail' | 'allPass' | 'pushedDown' | 'pushedDownFaulty' | 'faultyCap';

type World = RunSettings['episode'];
type Way = 'more' | 'less';

interface ClaimSpec {
  key: ClaimKey;
  /** The plate's claim, on its first row ('' on the rows that go on measuring it). */
  claim: string;
  what: string;
  /** Which way the plate says the figure goes with two calls; null: shown beside, claimed nothing. */
  way: Way | null;
  /** The per-step curve a run is measured on, with its calculator (faultyCap: the reward of both). */
  metric: ReferenceMetric;
  faulty: boolean;
}

/** @internal A test seam: exported for the claims' tests. */
export const CLAIMS: readonly ClaimSpec[] = [
  {
    key: 'reward',
    claim: 'Rewards become sparser',
    what: 'sampled reward (reliable)',
    way: 'less',
    metric: 'meanReward',
    faulty: false,
  },
  {
    key: 'allFail',
    claim: '',
    what: 'groups whose 8 episodes all failed: no reward to learn from (reliable)',
    way: 'more',
    metric: 'allFailGroups',
    faulty: false,
  },
  {
    key: 'allPass',
    claim: '',
    what: 'beside them, groups all 8 of which were paid: solved, they teach nothing either (reliable)',
    way: null,
    metric: 'allPassGroups',
    faulty: false,
  },
  {
    key: 'pushedDown',
    claim: 'Credit is spread over every action',
    what: 'correct first calls pushed down (reliable)',
    way: 'more',
    metric: 'correctCallsPushedDown',
    faulty: false,
  },
  {
    key: 'pushedDownFaulty',
    claim: '',
    what: 'correct first calls pushed down (faulty)',
    way: 'more',
    metric: 'correctCallsPushedDown',
    faulty: true,
  },
  {
    key: 'faultyCap',
    claim: 'The environment’s randomness enters every gradient',
    what: 'faulty ÷ reliable reward',
    way: 'less',
    metric: 'meanReward',
    faulty: false,
  },
];

/** The settings of a claim's runs: the plate's, the two-call agent playing `world`. */
const heldFixed = (world: World, faulty: boolean): RunSettings => ({
  ...PLATE_SETTINGS,
  episode: world,
  agent: 'three-calls',
  faulty,
});

const meanOf = (xs: readonly number[]): number => mean(xs) ?? NaN;

/** A world's reference curves of `metric` by seed, with one calculator; a seed lacking the curve is left out. */
const seedCurves = (ref: ReferenceRuns, world: World, faulty: boolean, metric: ReferenceMetric) =>
  new Map(
    runsLike(ref, heldFixed(world, faulty)).flatMap((r: ReferenceRun) => {
      const curve = curveOf(r, metric);
      return curve ? [[r.seed, curve] as const] : [];
    }),
  );

/** One figure per seed of a world's reference runs, by seed; a seed lacking a curve is left out. */
function perSeed(ref: ReferenceRuns, c: ClaimSpec, world: World): Map<number, number> {
  const bySeed = (faulty: boolean, metric: ReferenceMetric) =>
    new Map([...seedCurves(ref, world, faulty, metric)].map(([seed, curve]) => [seed, meanOf(curve)] as const));
  if (c.key !== 'faultyCap') return bySeed(c.faulty, c.metric);
  const reliable = bySeed(false, 'meanReward');
  const faulty = bySeed(true, 'meanReward');
  return new Map([...faulty].flatMap(([seed, f]) => (reliable.get(seed) ? [[seed, f / reliable.get(seed)!]] : [])));
}

/** The reader's runs a claim's cell reads: made with the plate's settings but the world, by the two-call agent. */
const isHeldFixed = (r: RunView): boolean =>
  agentOf(r.config) === 'three-calls' &&
  r.config.masking === PLATE_SETTINGS.masking &&
  r.config.advantage === PLATE_SETTINGS.advantage &&
  r.config.grader === PLATE_SETTINGS.grader &&
  r.config.temperature === PLATE_SETTINGS.temperature &&
  r.config.updatesPerBatch === PLATE_SETTINGS.updatesPerBatch;

const sampled = (steps: readonly GrpoStepView[]) => steps.filter((s) => s.meanReward !== null);

type StepFigure = 'meanReward' | 'allFailGroups' | 'allPassGroups' | 'correctCallsPushedDown';
const overSteps = (steps: readonly GrpoStepView[], k: StepFigure): number | null =>
  mean(sampled(steps), (s) => s[k] ?? undefined) ?? null;

/** The reader's latest held-fixed run in `world` with the calculator `faulty` says, that sampled a step. */
const latestRun = (runs: readonly RunView[], world: World, faulty: boolean): RunView | undefined =>
  [...runs]
    .reverse()
    .find((r) => isHeldFixed(r) && r.config.episode === world && r.config.faulty === faulty && sampled(r.steps).length);

/**
 * The sampled steps of the reader's latest faulty and reliable runs in `world`, over the steps both
 * have (a run stopped early is compared with the same window); null without one of each.
 */
function pairedSteps(runs: readonly RunView[], world: World) {
  const [f, r] = [latestRun(runs, world, true), latestRun(runs, world, false)];
  if (!f || !r) return null;
  const n = Math.min(sampled(f.steps).length, sampled(r.steps).length);
  return { faulty: sampled(f.steps).slice(0, n), reliable: sampled(r.steps).slice(0, n) };
}

/** The reader's figure for a claim in `world`: its latest such run (for the cap, one of each calculator). */
function yourFigure(runs: readonly RunView[], c: ClaimSpec, world: World): number | null {
  if (c.key === 'faultyCap') {
    const paired = pairedSteps(runs, world);
    const reliable = paired && overSteps(paired.reliable, 'meanReward');
    return paired && reliable ? overSteps(paired.faulty, 'meanReward')! / reliable : null;
  }
  const run = latestRun(runs, world, c.faulty);
  return run ? overSteps(run.steps, c.metric as StepFigure) : null;
}

export interface ClaimRow {
  key: ClaimKey;
  claim: string;
  what: string;
  way: Way | null;
  /** Means over the seeds: the same agent on one-call sums and on two-call sums; null until the file is in. */
  one: number | null;
  two: number | null;
  /** The reader's latest run with the two-call agent, in its world; null without one. */
  yours: number | null;
  /** Whether the claim shows, in words, and why where it does not; null where nothing is claimed or known. */
  shows: string | null;
  /** Where it does not show: in the reference means, at a seed, or in the reader's run. */
  against: ('reference' | 'seed' | 'yours')[];
}

/** How a row writes a figure. */
export const claimValue = (key: ClaimKey, v: number | null): string =>
  v === null || !Number.isFinite(v) ? '—' : key === 'faultyCap' ? v.toFixed(2) : pct(v);

const pointsWay = (way: Way, one: number, two: number): boolean => (way === 'more' ? two > one : two < one);
const wordsOf = (w: World) => (w === 'two-calls' ? 'two calls' : 'one call');

/** The world of the reader's latest run with the two-call agent, if any. */
export function yourWorld(runs: readonly RunView[]): World | null {
  return [...runs].reverse().find((r) => isHeldFixed(r) && sampled(r.steps).length)?.config.episode ?? null;
}

/**
 * The claims' rows: each figure with the agent held fixed, from the two-call agent's reference
 * runs (null: not loaded yet) and from the reader's runs, and whether each claim shows.
 */
export function claimRows(ref: ReferenceRuns | null, runs: readonly RunView[]): ClaimRow[] {
  const world = yourWorld(runs);
  return CLAIMS.map((c) => {
    const one = ref ? perSeed(ref, c, 'one-call') : null;
    const two = ref ? perSeed(ref, c, 'two-calls') : null;
    const row: ClaimRow = {
      key: c.key,
      claim: c.claim,
      what: c.what,
      way: c.way,
      one: one?.size ? meanOf([...one.values()]) : null,
      two: two?.size ? meanOf([...two.values()]) : null,
      yours: world ? yourFigure(runs, c, world) : null,
      shows: null,
      against: [],
    };
    if (c.way && one && two && row.one !== null && row.two !== null)
      Object.assign(row, verdict(c, row, one, two, world));
    return row;
  });
}

/** Whether the claim shows in the means, at each seed and in the reader's run — in words, with why where not. */
function verdict(
  c: ClaimSpec,
  row: ClaimRow,
  one: Map<number, number>,
  two: Map<number, number>,
  world: World | null,
): Pick<ClaimRow, 'shows' | 'against'> {
  const way = c.way!;
  const v = (x: number) => claimValue(c.key, x);
  const against: ClaimRow['against'] = [];
  const words: string[] = [];
  const seeds = [...one.keys()].filter((s) => two.has(s)).sort((a, b) => a - b);
  const off = seeds.filter((s) => !pointsWay(way, one.get(s)!, two.get(s)!));
  if (!pointsWay(way, row.one!, row.two!)) {
    against.push('reference');
    words.push(
      `Not in our reference runs: two calls ${v(row.two!)} against one call’s ${v(row.one!)}, the other way from the plate’s claim.`,
    );
  } else if (off.length === 0) {
    words.push(`Shows at ${seeds.length} of ${seeds.length} seeds.`);
  } else {
    against.push('seed');
    const at = off.map((s) => `seed ${s} (two calls ${v(two.get(s)!)}, one call ${v(one.get(s)!)})`).join('; ');
    words.push(
      `Shows in the means and at ${seeds.length - off.length} of ${seeds.length} seeds, not at ${at}: one seed’s 40 steps of 8 groups are noisy, the mean of five less so.`,
    );
  }
  if (world && row.yours !== null && Number.isFinite(row.yours)) {
    // The reader's run against the other world's reference mean.
    const holds = world === 'two-calls' ? pointsWay(way, row.one!, row.yours) : pointsWay(way, row.yours, row.two!);
    const other = world === 'two-calls' ? row.one! : row.two!;
    const otherWorld = world === 'two-calls' ? 'one-call' : 'two-calls';
    if (holds) words.push(`Your run (${wordsOf(world)}) shows it too: ${v(row.yours)} against ${v(other)}.`);
    else {
      against.push('yours');
      words.push(
        `Not in your run (${wordsOf(world)}): ${v(row.yours)} against the ${otherWorld} runs’ ${v(other)} — one run set against a mean of five seeds; the band on the chart shows how far one seed strays.`,
      );
    }
  }
  return { shows: words.join(' '), against };
}

/** A world's reference curve for a claim's chart: the seeds' spread and their mean, per step. */
export interface ClaimCurve {
  band: BandPoint[];
  mean: [number, number][];
}

/** A running mean: the mean of steps 1..t at each t. */
const running = (xs: readonly number[]): number[] => {
  let sum = 0;
  return xs.map((x, i) => (sum += x) / (i + 1));
};

/**
 * Per step 1..n, the seeds' curves of a claim in one world, as a band and a mean: the claim's
 * figure per step (its calculator as `faulty` says), or for the cap the faulty ÷ reliable ratio of
 * each seed's reward so far (its last point is the table's figure).
 */
export function claimCurve(ref: ReferenceRuns, key: ClaimKey, world: World, faulty: boolean): ClaimCurve {
  const c = CLAIMS.find((x) => x.key === key)!;
  const curves = (f: boolean, metric: ReferenceMetric) => seedCurves(ref, world, f, metric);
  let per: number[][];
  if (key === 'faultyCap') {
    const reliable = curves(false, 'meanReward');
    per = [...curves(true, 'meanReward')].flatMap(([seed, f]) => {
      const r = reliable.get(seed);
      if (!r) return [];
      const [fr, rr] = [running(f), running(r)];
      return [fr.map((x, i) => (rr[i]! > 0 ? x / rr[i]! : 0))];
    });
  } else per = [...curves(faulty, c.metric).values()];
  if (per.length === 0) return { band: [], mean: [] };
  const steps = per[0]!.map((_, i) => i);
  return {
    band: steps.map((i) => {
      const xs = per.map((p) => p[i]!);
      return { step: i + 1, lo: Math.min(...xs), hi: Math.max(...xs) };
    }),
    mean: steps.map((i) => [i + 1, meanOf(per.map((p) => p[i]!))]),
  };
}

/** The reader's curve for a claim's chart: its latest held-fixed run with the chart's calculator (the cap: both). */
export function yourClaimCurve(runs: readonly RunView[], key: ClaimKey, faulty: boolean): [number, number][] {
  const world = yourWorld(runs);
  if (!world) return [];
  if (key === 'faultyCap') {
    const paired = pairedSteps(runs, world);
    if (!paired) return [];
    const [fr, rr] = [paired.faulty, paired.reliable].map((ss) => running(ss.map((s) => s.meanReward!)));
    return paired.faulty.map((s, i) => [s.step, rr![i]! > 0 ? fr![i]! / rr![i]! : 0]);
  }
  const run = latestRun(runs, world, faulty);
  const k = CLAIMS.find((x) => x.key === key)!.metric as StepFigure;
  return run ? sampled(run.steps).flatMap((s) => (s[k] === null ? [] : [[s.step, s[k]] as [number, number]])) : [];
}
