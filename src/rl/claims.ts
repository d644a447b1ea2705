/**
 * The plate's closing claims — what grows with the episode — as data, each claim's figure from a
 * seed's runs, and a verdict on how a figure moves as the calls go from one to two to three. Pure
 * and shared: `npm run longer-episode` computes its table with it from live runs, and the page can
 * compute the same verdicts from the reference runs (the same per-step curves, rl/figures.ts).
 *
 * A claim's figure is a mean over a run's GRPO steps, of one seed's run with the plate's settings
 * and the agent held fixed (the three-call agent at every length); the faulty ÷ reliable ratio
 * divides the two calculators' mean rewards at the same seed.
 */

/** The per-step figures a claim reads: GrpoRecord's (rl/figures.ts), as a reference file keeps them. */
export const CLAIM_FIGURES = ['meanReward', 'allFailGroups', 'allPassGroups', 'correctCallsPushedDown'] as const;
type ClaimFigure = (typeof CLAIM_FIGURES)[number];

/** A seed's per-step curves at one length (steps 1..n), with one calculator; a missing curve is left out. */
export type StepCurves = Partial<Record<ClaimFigure, readonly number[]>>;

type ClaimName = 'reward' | 'allFail' | 'allPass' | 'pushedDown' | 'pushedDownFaulty' | 'faultyCap';

/** Which way the plate says a figure goes as the episode grows. */
export type ClaimWay = 'up' | 'down';

export interface Claim {
  name: ClaimName;
  /** The figure in words, with its calculator. */
  what: string;
  /** Which way the plate says it goes with more calls; null: shown beside the others, claimed nothing. */
  way: ClaimWay | null;
  /** The per-step figure a run is measured on (faultyCap: the reward of both calculators). */
  figure: ClaimFigure;
  faulty: boolean;
}

export const CLAIMS: readonly Claim[] = [
  // Rewards become sparser.
  { name: 'reward', what: 'sampled reward (reliable)', way: 'down', figure: 'meanReward', faulty: false },
  {
    name: 'allFail',
    what: 'groups whose 8 episodes all failed (reliable)',
    way: 'up',
    figure: 'allFailGroups',
    faulty: false,
  },
  // Solved groups teach nothing either, but are the opposite of sparse: shown, claimed nothing.
  {
    name: 'allPass',
    what: 'groups all 8 of which were paid (reliable)',
    way: null,
    figure: 'allPassGroups',
    faulty: false,
  },
  // Credit is spread over every action.
  {
    name: 'pushedDown',
    what: 'correct first calls pushed down (reliable)',
    way: 'up',
    figure: 'correctCallsPushedDown',
    faulty: false,
  },
  {
    name: 'pushedDownFaulty',
    what: 'correct first calls pushed down (faulty)',
    way: 'up',
    figure: 'correctCallsPushedDown',
    faulty: true,
  },
  // The environment's randomness enters every gradient: each call can lie (0.7 a call, so 0.7ᵏ).
  { name: 'faultyCap', what: 'faulty ÷ reliable reward', way: 'down', figure: 'meanReward', faulty: false },
];

/** The mean of a seed's or a run's figures (NaN for none: every caller has at least one). */
export const meanOf = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

/**
 * A claim's figure for one seed at one length, from its reliable and its faulty run's curves;
 * null where a curve it needs is missing (or, for the ratio, the reliable reward is 0).
 */
export function claimFigure(claim: Claim, runs: { reliable: StepCurves; faulty: StepCurves }): number | null {
  if (claim.name === 'faultyCap') {
    const [f, r] = [runs.faulty.meanReward, runs.reliable.meanReward];
    return f?.length && r?.length && meanOf(r) > 0 ? meanOf(f) / meanOf(r) : null;
  }
  const curve = (claim.faulty ? runs.faulty : runs.reliable)[claim.figure];
  return curve?.length ? meanOf(curve) : null;
}

/**
 * How a claim's figure moves over the lengths, for the claim's effect — "grows" always means the
 * figure moves the plate's way: a figure the plate says rises (all-fail groups, calls pushed down)
 * rises; one it says falls (the reward, the faulty ÷ reliable ratio) falls.
 *
 *   grows                every step from one length to the next moves the plate's way
 *   grows then flattens  the first steps move the plate's way, the later ones are flat (none back)
 *   does not grow        anything else: a step against the plate's way, or a flat first step
 *                        (a claim that the figure grows with every call needs the first call added
 *                        to show it)
 */
export type Verdict = 'grows' | 'grows then flattens' | 'does not grow';

/** One step from a length to the next: the plate's way, flat (within the seeds' noise), or against it. */
type StepWay = 'plate' | 'flat' | 'against';

/** The standard error of a mean of per-seed figures (0 for one seed: nothing to measure the noise by). */
export const standardError = (xs: readonly number[]): number => {
  if (xs.length < 2) return 0;
  const m = meanOf(xs);
  const variance = xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
  return Math.sqrt(variance / xs.length);
};

/**
 * Each step between consecutive lengths, from the per-seed figures at each length. The tolerance
 * rule: a step between two means smaller than the standard error of their difference,
 * √(se₁² + se₂²) from the seeds' spread at each length, counts as flat. Five seeds of 40 steps of 8
 * groups are noisy (a seed's figure moves by points from one seed to the next), and a difference
 * inside one standard error is what that noise makes on its own about a third of the time with no
 * effect at all: calling it growth, or a fall, would read the noise. One standard error — not two,
 * as a test would — because the verdict describes the trend the seeds show, it does not prove it:
 * the per-seed figures stay beside it in the table. The page says why a step is not the plate's way from these.
 */
export function stepWays(way: ClaimWay, seedsByLength: readonly (readonly number[])[]): StepWay[] {
  const sign = way === 'up' ? 1 : -1;
  return seedsByLength.slice(1).map((next, i) => {
    const prev = seedsByLength[i]!;
    const tolerance = Math.hypot(standardError(prev), standardError(next));
    const step = sign * (meanOf(next) - meanOf(prev));
    return Math.abs(step) <= tolerance ? 'flat' : step > 0 ? 'plate' : 'against';
  });
}

/** The verdict on a claim (its `way`) from its per-seed figures at each length, fewest calls first (at least two). */
export function claimVerdict(way: ClaimWay, seedsByLength: readonly (readonly number[])[]): Verdict {
  if (seedsByLength.length < 2 || seedsByLength.some((xs) => xs.length === 0))
    throw new Error(`claimVerdict: needs figures at two lengths or more, got ${seedsByLength.length}`);
  const steps = stepWays(way, seedsByLength);
  if (steps.every((s) => s === 'plate')) return 'grows';
  const flatFrom = steps.indexOf('flat');
  const growsThenFlat =
    flatFrom > 0 &&
    steps.slice(0, flatFrom).every((s) => s === 'plate') &&
    steps.slice(flatFrom).every((s) => s === 'flat');
  return growsThenFlat ? 'grows then flattens' : 'does not grow';
}

/** A claim's means at each length and its verdict (null where it claims nothing). */
export function claimTrend(
  claim: Claim,
  seedsByLength: readonly (readonly number[])[],
): { values: number[]; verdict: Verdict | null } {
  return {
    values: seedsByLength.map(meanOf),
    verdict: claim.way ? claimVerdict(claim.way, seedsByLength) : null,
  };
}
