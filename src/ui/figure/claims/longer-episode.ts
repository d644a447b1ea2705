/**
 * The plate's closing claims as figures, with the agent held fixed: one agent (CLAIM_AGENT) on
 * every length it plays, so the lengths differ in the episode alone. From that agent's reference
 * runs (one file holds every length: the plate's settings, seeds as the file holds them) and from
 * the reader's runs with that agent. Pure: from the runs to what the figure's table and small
 * charts say, and each claim's verdict in words — computed from the reference runs by
 * rl/claims.ts's rule (grows, grows then flattens, does not grow), with why where the runs say why.
 *
 * Every figure is a mean over a run's GRPO steps (a reference run's 40; the reader's so far),
 * then over the seeds; the claims, their figures and the way each goes are rl/claims.ts's.
 */
import { format } from 'd3';
import type { RunSequence } from '../../../client/run-sequence';
import { EPISODES, type EpisodeKind } from '../../../env/episode';
import { AGENTS, agentOf, callsAdjective, callsWords, WORLDS, type AgentName } from '../../../env/world';
import { PLATE_SETTINGS, SETTING_KEYS, settingsLabel, type RunSettings } from '../../../pipeline/settings';
import type { GrpoStepView } from '../../../protocol/episode-view';
import {
  CLAIM_FIGURES,
  CLAIMS as CLAIM_SPECS,
  claimFigure,
  claimVerdict,
  meanOf,
  stepWays,
  type Claim,
  type ClaimWay,
  type StepCurves,
  type Verdict,
} from '../../../rl/claims';
import { pct } from '../../format';
import { curveOf, runsLike, type ReferenceRun, type ReferenceRuns } from '../reference';
import type { RunView } from '../types';

/** The agent the claims hold fixed: fine-tuned on every length it plays. */
export const CLAIM_AGENT: AgentName = 'three-calls';
/** The lengths it plays, fewest calls first: the claims' columns and the charts' x axis. */
export const CLAIM_LENGTHS: readonly EpisodeKind[] = EPISODES.filter((e) => AGENTS[CLAIM_AGENT].plays.includes(e)).sort(
  (a, b) => WORLDS[a].calls - WORLDS[b].calls,
);

export type ClaimKey = Claim['name'];

interface ClaimSpec extends Claim {
  key: ClaimKey;
  /** The plate's claim, on its first row ('' on the rows that go on measuring it). */
  claim: string;
}

/** The plate's words for each claim; the figure, its calculator and its way are rl/claims.ts's. */
const PLATE_SAYS: Record<ClaimKey, { claim: string; what: string }> = {
  reward: { claim: 'Rewards become sparser', what: 'sampled reward (reliable)' },
  allFail: { claim: '', what: 'groups whose 8 episodes all failed: no reward to learn from (reliable)' },
  allPass: {
    claim: '',
    what: 'beside them, groups all 8 of which were paid: solved, they teach nothing either (reliable)',
  },
  pushedDown: { claim: 'Credit is spread over every action', what: 'correct first calls pushed down (reliable)' },
  pushedDownFaulty: { claim: '', what: 'correct first calls pushed down (faulty)' },
  faultyCap: { claim: 'The environment’s randomness enters every gradient', what: 'faulty ÷ reliable reward' },
};

/** Which length of a run of every length trains, in words: "one call, 1 of 3" (null outside one). */
export const sequenceWords = (q: RunSequence | null): string | null =>
  q?.state === 'running' ? `${callsWords(q.lengths[q.index]!)}, ${q.index + 1} of ${q.lengths.length}` : null;

/** @internal A test seam: exported for the claims' tests. */
export const CLAIMS: readonly ClaimSpec[] = CLAIM_SPECS.map((c) => ({ ...c, key: c.name, ...PLATE_SAYS[c.name] }));

/** The settings of a claim's reference runs: the plate's, the held-fixed agent playing `episode`. */
const heldFixed = (episode: EpisodeKind, faulty: boolean): RunSettings => ({
  ...PLATE_SETTINGS,
  episode,
  agent: CLAIM_AGENT,
  faulty,
});

/** A reference run's per-step curves as a claim reads them (rl/claims.ts); none without a run. */
function referenceCurves(r: ReferenceRun | undefined): StepCurves {
  if (!r) return {};
  return Object.fromEntries(CLAIM_FIGURES.flatMap((k) => (curveOf(r, k) ? [[k, curveOf(r, k)!]] : [])));
}

/** One figure per seed of a length's reference runs (rl/claims.ts's claimFigure), by seed; a seed lacking a curve is left out. */
function perSeed(ref: ReferenceRuns, c: ClaimSpec, episode: EpisodeKind): Map<number, number> {
  const runs = (faulty: boolean) => new Map(runsLike(ref, heldFixed(episode, faulty)).map((r) => [r.seed, r]));
  const [reliable, faulty] = [runs(false), runs(true)];
  const seeds = [...new Set([...reliable.keys(), ...faulty.keys()])].sort((a, b) => a - b);
  return new Map(
    seeds.flatMap((seed) => {
      const value = claimFigure(c, {
        reliable: referenceCurves(reliable.get(seed)),
        faulty: referenceCurves(faulty.get(seed)),
      });
      return value === null ? [] : [[seed, value] as const];
    }),
  );
}

const sampled = (steps: readonly GrpoStepView[]) => steps.filter((s) => s.meanReward !== null);

/** The settings a reader's claim runs must share to be set beside each other: all but the length, the calculator and the tool's speed. */
const SHARED = SETTING_KEYS.filter((k) => k !== 'episode' && k !== 'faulty' && k !== 'toolLatencyMs');

/** A run of the held-fixed agent from the shipped weights, that sampled a step. */
const isClaimRun = (r: RunView): boolean =>
  agentOf(r.config) === CLAIM_AGENT && r.config.start === 'agent' && sampled(r.steps).length > 0;

/**
 * The reader's runs the claims read: the held-fixed agent's, made with the settings of the
 * reader's latest such run (its calculator and length aside), so that the reader's figures at
 * each length differ in the length alone. Oldest first.
 */
function yourClaimRuns(runs: readonly RunView[]): RunView[] {
  const latest = [...runs].reverse().find(isClaimRun);
  if (!latest) return [];
  return runs.filter(
    (r) =>
      isClaimRun(r) && r.config.seed === latest.config.seed && SHARED.every((k) => r.config[k] === latest.config[k]),
  );
}

/** A run's sampled steps as the curves a claim reads (rl/claims.ts); a step without a figure is left out of its curve. */
const stepCurves = (steps: readonly GrpoStepView[]): StepCurves =>
  Object.fromEntries(CLAIM_FIGURES.map((k) => [k, sampled(steps).flatMap((s) => s[k] ?? [])]));

/** The reader's latest claim run at `episode` with the calculator `faulty` says. */
const latestRun = (runs: readonly RunView[], episode: EpisodeKind, faulty: boolean): RunView | undefined =>
  [...runs].reverse().find((r) => r.config.episode === episode && r.config.faulty === faulty);

/**
 * The sampled steps of the reader's latest faulty and reliable runs at `episode`, over the steps
 * both have (a run stopped early is compared with the same window); null without one of each.
 */
function pairedSteps(runs: readonly RunView[], episode: EpisodeKind) {
  const [f, r] = [latestRun(runs, episode, true), latestRun(runs, episode, false)];
  if (!f || !r) return null;
  const n = Math.min(sampled(f.steps).length, sampled(r.steps).length);
  return { faulty: sampled(f.steps).slice(0, n), reliable: sampled(r.steps).slice(0, n) };
}

/** The reader's figure for a claim at one length (rl/claims.ts's claimFigure), and the GRPO steps it is a mean over. */
function yourFigure(runs: readonly RunView[], c: ClaimSpec, episode: EpisodeKind): Yours | null {
  if (c.key === 'faultyCap') {
    const paired = pairedSteps(runs, episode);
    const value =
      paired && claimFigure(c, { reliable: stepCurves(paired.reliable), faulty: stepCurves(paired.faulty) });
    return paired && value !== null ? { value, steps: paired.faulty.length } : null;
  }
  const run = latestRun(runs, episode, c.faulty);
  const curves = run ? stepCurves(run.steps) : {};
  const value = run ? claimFigure(c, { reliable: curves, faulty: curves }) : null;
  return run && value !== null ? { value, steps: sampled(run.steps).length } : null;
}

interface Yours {
  value: number;
  /** The GRPO steps it is a mean over (a run still training: its steps so far). */
  steps: number;
}

/** A claim's figures at one length. */
interface LengthFigures {
  episode: EpisodeKind;
  calls: number;
  /** The reference runs' figure per seed; empty until the file is in. */
  bySeed: ReadonlyMap<number, number>;
  /** Their mean over the seeds; null until the file is in. */
  mean: number | null;
  /** The reader's, from the latest claim runs; null without one. */
  yours: Yours | null;
}

export interface ClaimRow {
  key: ClaimKey;
  claim: string;
  what: string;
  way: ClaimWay | null;
  /** One per length, fewest calls first. */
  lengths: LengthFigures[];
  /** How the reference means move over the lengths (rl/claims.ts); null where nothing is claimed or known. */
  verdict: Verdict | null;
  /** The verdict in words, and why where the runs say why; then the reader's runs. */
  shows: string | null;
  /** Where it does not show: in the reference runs, or in the reader's runs. */
  against: ('reference' | 'yours')[];
}

const SMALL_PCT = format('.1%');

/** How a row writes a figure. */
export const claimValue = (key: ClaimKey, v: number | null | undefined): string =>
  v === null || v === undefined || !Number.isFinite(v)
    ? '—'
    : key === 'faultyCap'
      ? v.toFixed(2)
      : v < 0.1
        ? SMALL_PCT(v) // a few percent: a tenth of a point is the difference between lengths
        : pct(v);

/** Each step from fewer calls to more goes the plate's way (one seed's runs: no noise to measure). */
const everyStepWay = (way: ClaimWay, xs: readonly number[]): boolean =>
  xs.every((x, i) => i === 0 || (way === 'up' ? x > xs[i - 1]! : x < xs[i - 1]!));

/** The figures in order of length, in words: "90% → 85%". */
const trendWords = (key: ClaimKey, xs: readonly number[]): string => xs.map((x) => claimValue(key, x)).join(' → ');

/** The held-fixed agent's held-out success at the start of its reliable reference runs, per length: how able it is there. */
function abilities(ref: ReferenceRuns): (number | null)[] {
  return CLAIM_LENGTHS.map((e) => {
    const runs = runsLike(ref, heldFixed(e, false));
    return runs.length ? meanOf(runs.map((r) => r.heldOut[0]!)) : null;
  });
}

/** A claim's figures at each length: the reference runs' per seed and their mean, and the reader's (`yours`: yourClaimRuns). */
function lengthFigures(ref: ReferenceRuns | null, yours: readonly RunView[], c: ClaimSpec): LengthFigures[] {
  return CLAIM_LENGTHS.map((episode) => {
    const bySeed = ref ? perSeed(ref, c, episode) : new Map<number, number>();
    return {
      episode,
      calls: WORLDS[episode].calls,
      bySeed,
      mean: bySeed.size ? meanOf([...bySeed.values()]) : null,
      yours: yourFigure(yours, c, episode),
    };
  });
}

/**
 * The claims' rows: each figure with the agent held fixed, from that agent's reference runs
 * (null: not loaded yet) and from the reader's runs, and whether each claim shows.
 */
export function claimRows(ref: ReferenceRuns | null, runs: readonly RunView[]): ClaimRow[] {
  const yours = yourClaimRuns(runs);
  // The reader's runs were made as the reference runs are: one of them may be set against their means.
  const plateLike =
    yours.length > 0 && SHARED.every((k) => yours.at(-1)!.config[k] === PLATE_SETTINGS[k] || k === 'agent');
  const able = ref ? abilities(ref) : [];
  return CLAIMS.map((c) => {
    const lengths = lengthFigures(ref, yours, c);
    const row: ClaimRow = {
      key: c.key,
      claim: c.claim,
      what: c.what,
      way: c.way,
      lengths,
      verdict: null,
      shows: null,
      against: [],
    };
    if (!c.way || lengths.some((l) => l.bySeed.size === 0)) return row;
    const said = [inReference(c, lengths, able), inYours(c, lengths, plateLike)];
    return {
      ...row,
      verdict: claimVerdict(
        c.way,
        lengths.map((l) => [...l.bySeed.values()]),
      ),
      shows: said.flatMap((p) => p.words).join(' '),
      against: said.flatMap((p) => p.against),
    };
  });
}

/** What a part of a verdict says, and where the claim does not show. */
interface Said {
  words: string[];
  against: ClaimRow['against'];
}

const VERDICT_WORDS: Record<Verdict, string> = {
  grows: 'Grows with every call',
  'grows then flattens': 'Grows, then flattens',
  'does not grow': 'Does not grow here',
};

/**
 * In the reference runs: the verdict, the means it reads, and why at each step that is not the
 * plate's way — within the seeds' noise, or the other way — and, where the agent starts less able
 * at the shorter length, that too (its failures there are the agent's, not the length's).
 */
function inReference(c: ClaimSpec, lengths: readonly LengthFigures[], able: readonly (number | null)[]): Said {
  const way = c.way!;
  const seeds = lengths.map((l) => [...l.bySeed.values()]);
  const verdict = claimVerdict(way, seeds);
  const trend = trendWords(
    c.key,
    lengths.map((l) => l.mean!),
  );
  const steps = stepWays(way, seeds);
  const span = (i: number) => `from ${callsWords(lengths[i]!.episode)} to ${callsWords(lengths[i + 1]!.episode)}`;
  const which = (kind: string) => steps.flatMap((s, i) => (s === kind ? [span(i)] : []));
  const [flat, back] = [which('flat'), which('against')];
  const stepsAre = (spans: string[], one: string, many: string) =>
    `the step${spans.length > 1 ? 's' : ''} ${spans.join(' and ')} ${spans.length > 1 ? many : one}`;
  const why = [
    ...(flat.length ? [stepsAre(flat, 'is within the seeds’ noise', 'are within the seeds’ noise')] : []),
    ...(back.length ? [stepsAre(back, 'goes the other way', 'go the other way')] : []),
  ];
  // Where a step is not the plate's way and the agent starts less able at the shorter length.
  const weaker = steps.findIndex(
    (s, i) => s !== 'plate' && able[i] != null && able[i + 1] != null && able[i]! < able[i + 1]!,
  );
  if (weaker >= 0) {
    const [a, b] = [lengths[weaker]!.episode, lengths[weaker + 1]!.episode];
    why.push(
      `the agent starts less able at ${callsWords(a)} (${pct(able[weaker]!)} held-out) than at ${callsWords(b)} (${pct(able[weaker + 1]!)})`,
    );
  }
  return {
    words: [`${VERDICT_WORDS[verdict]} (${trend})${why.length ? `: ${why.join('; ')}` : ''}.`],
    against: verdict === 'does not grow' ? ['reference'] : [],
  };
}

/**
 * In the reader's runs: against each other where there are several (the same agent, seed and
 * settings: the length alone differs), or one run made as the reference runs were against the
 * next length's mean.
 */
function inYours(c: ClaimSpec, lengths: readonly LengthFigures[], plateLike: boolean): Said {
  const way = c.way!;
  const v = (x: number) => claimValue(c.key, x);
  const mine = lengths.filter((l) => l.yours !== null);
  const strays = 'the bars on the charts show how far one seed strays';
  if (mine.length >= 2) {
    const xs = mine.map((l) => l.yours!.value);
    const which = `${mine.map((l) => callsWords(l.episode)).join(', ')}: ${trendWords(c.key, xs)}`;
    return everyStepWay(way, xs)
      ? { words: [`Your runs go the plate’s way at every step (${which}).`], against: [] }
      : {
          words: [`Your runs do not at every step (${which}): one seed’s runs, where ours are five seeds’; ${strays}.`],
          against: ['yours'],
        };
  }
  if (mine.length === 0 || !plateLike) return { words: [], against: [] };
  const i = lengths.indexOf(mine[0]!);
  const j = i + 1 < lengths.length ? i + 1 : i - 1;
  const [yours, other] = [mine[0]!.yours!.value, lengths[j]!.mean!];
  const which = callsWords(lengths[i]!.episode);
  return everyStepWay(way, i < j ? [yours, other] : [other, yours])
    ? { words: [`Your run (${which}) goes the plate’s way: ${v(yours)} against ${v(other)}.`], against: [] }
    : {
        words: [
          `Not in your run (${which}): ${v(yours)} against the ${callsAdjective(lengths[j]!.episode)} runs’ ${v(other)} — one run set against a mean of five seeds; ${strays}.`,
        ],
        against: ['yours'],
      };
}

/** The settings of the reader's claim runs where they are not the plate's, in words ('' when they are). */
export function yourSettingsWords(runs: readonly RunView[]): string {
  const latest = yourClaimRuns(runs).at(-1);
  // The rows the reader's runs share but the agent, which the caption names itself.
  return latest
    ? settingsLabel(
        latest.config,
        SHARED.filter((k) => k !== 'agent'),
      )
    : '';
}

/** A claim's chart at one length: the seeds' figures, their spread and mean, and the reader's. */
export interface TrendPoint {
  episode: EpisodeKind;
  calls: number;
  lo: number | null;
  hi: number | null;
  mean: number | null;
  seeds: number;
  yours: Yours | null;
}

/**
 * A claim against the number of calls, for its chart: per length the reference seeds' spread and
 * mean, and the reader's figure; `faulty` picks the calculator of a claim measured with either
 * (the cap is both calculators' by definition).
 */
export function claimTrend(
  ref: ReferenceRuns | null,
  runs: readonly RunView[],
  key: ClaimKey,
  faulty: boolean,
): TrendPoint[] {
  const base = CLAIMS.find((x) => x.key === key)!;
  const c: ClaimSpec = key === 'faultyCap' ? base : { ...base, faulty };
  return lengthFigures(ref, yourClaimRuns(runs), c).map(({ episode, calls, bySeed, mean, yours }) => {
    const xs = [...bySeed.values()];
    return {
      episode,
      calls,
      lo: xs.length ? Math.min(...xs) : null,
      hi: xs.length ? Math.max(...xs) : null,
      mean,
      seeds: xs.length,
      yours,
    };
  });
}
