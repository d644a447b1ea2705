/**
 * At the plate's scale: the closing claims carried from the one, two and three calls the page
 * measures to the hundreds of calls the plate speaks of, by a stated model fitted to the
 * three-call agent's reference runs (the plate's credit and grader, seeds 1–5, 40 steps), and
 * checked where it can be. Pure and shared: `npm run longer-episode -- --scale` prints it and the
 * claims' scale charts draw it, from the same file.
 *
 * The model. Each added call is right with probability q, independently of the rest.
 *   q          per seed, a least-squares line through ln(sampled reward) against the calls
 *              (reward(k) = r₁·q^(k−1)); q = exp of the seeds' mean slope, its interval
 *              exp(mean ± t·se), Student's t at 95% over the seeds' spread; a probability, so at
 *              most 1.
 *   difficulty the sums are not equally hard: each group's success p is read off how many of its 8
 *              episodes were paid at the longest length measured, K (every group of every step
 *              of every seed), as the nonparametric maximum-likelihood mixture of binomials
 *              (Laird 1978: EM on a grid of p). At k calls a group succeeds with p·q^(k−K).
 *   predicted  with p′ = p·q^(k−K) (at most 1: the level is the runs' at K, the fall q's), the
 *              sampled reward = the mean of p′; all-fail groups = the mean of (1 − p′)⁸,
 *              all-pass = of p′⁸; a correct first call leaves the rest right with p′/q, and it is
 *              pushed down when its episode fails while another of its group's 7 is paid (a group
 *              with none paid has advantage 0 throughout): (1 − p′/q)·(1 − (1 − p′)⁷). So that share
 *              rises while failures after a right first call grow, then falls once groups stop
 *              being paid. Faulty ÷ reliable = 0.7^k (each call lies with probability 0.3).
 *   time       scale-time.ts: sampling's share of a step from the runs' measured time split.
 *
 * The check: fit on every length but the longest, predict the longest, and compare with what was
 * measured there; it holds where the prediction is within two of the seeds' standard errors.
 */
import { GRPO } from '../config';
import { WORLDS } from '../env/world';
import type { EpisodeKind } from '../env/episode';
import { meanOf, standardError } from './claims';
import { difficultyFrom, groupShares, type Difficulty, type GroupShares } from './scale-groups';
import { fitStepTime, measuredSamplingShare, modelSamplingShare, type StepTime, type TimeFit } from './scale-time';

export type { StepTime } from './scale-time';

/** A reference run as the model reads it: the three-call agent's file's runs (public/reference-runs-three-calls.json). */
export interface ScaleRun {
  seed: number;
  episode?: EpisodeKind;
  faulty: boolean;
  masking?: boolean;
  advantage?: string;
  grader?: string;
  updatesPerBatch?: number;
  meanReward: readonly number[];
  zeroSpreadGroups?: readonly number[];
  allFailGroups?: readonly number[];
  correctCallsPushedDown?: readonly number[];
  paidGroups?: readonly number[];
  stepTime?: StepTime;
}

/** What was measured at one length, per seed (seed order), each a mean over a run's GRPO steps. */
export interface MeasuredLength {
  calls: number;
  seeds: number[];
  reward: number[];
  allFail: number[];
  allPass: number[];
  pushedDown: number[];
  faultyRatio: number[];
  /** Sampling's share of a step, from each reliable run's medians (StepTime). */
  samplingShare: number[];
  /** The reliable runs' groups by paid episodes, 0..8, summed over seeds and steps. */
  paidGroups: number[];
  /** Every run's time split, both calculators. */
  times: StepTime[];
}

/** The plate's credit and grader at μ = 1: the runs that keep the claims' figures. */
const isPlateCredit = (r: ScaleRun): boolean =>
  (r.masking ?? true) &&
  (r.advantage ?? GRPO.advantage) === GRPO.advantage &&
  (r.grader ?? GRPO.grader) === GRPO.grader &&
  (r.updatesPerBatch ?? 1) === 1;

/**
 * @internal A test seam: exported for test/rl/scale.test.ts.
 * The measured lengths, fewest calls first, from a file's runs: the seeds that have a reliable
 * and a faulty run at every length. Null where the file lacks what the model reads (an older
 * file, before the paid counts and time splits were recorded), or has under two lengths.
 */
export function measuredLengths(runs: readonly ScaleRun[]): MeasuredLength[] | null {
  const plate = runs.filter(isPlateCredit);
  if (plate.some((r) => !r.paidGroups || !r.stepTime || !r.allFailGroups || !r.zeroSpreadGroups)) return null;
  const calls = [...new Set(plate.map((r) => WORLDS[r.episode ?? 'one-call'].calls))].sort((a, b) => a - b);
  const at = (k: number, faulty: boolean) =>
    plate.filter((r) => WORLDS[r.episode ?? 'one-call'].calls === k && r.faulty === faulty);
  const seeds = [...new Set(plate.map((r) => r.seed))]
    .filter((s) => calls.every((k) => [false, true].every((f) => at(k, f).some((r) => r.seed === s))))
    .sort((a, b) => a - b);
  if (calls.length < 2 || seeds.length < 2) return null;
  return calls.map((k) => {
    const run = (faulty: boolean, s: number) => at(k, faulty).find((r) => r.seed === s)!;
    const reliable = seeds.map((s) => run(false, s));
    const of = (xs: readonly number[] | undefined) => meanOf(xs!);
    return {
      calls: k,
      seeds,
      reward: reliable.map((r) => of(r.meanReward)),
      allFail: reliable.map((r) => of(r.allFailGroups)),
      allPass: reliable.map((r) => of(r.zeroSpreadGroups) - of(r.allFailGroups)),
      pushedDown: reliable.map((r) => of(r.correctCallsPushedDown)),
      faultyRatio: seeds.map((s) => of(run(true, s).meanReward) / of(run(false, s).meanReward)),
      samplingShare: reliable.map((r) => measuredSamplingShare(r.stepTime!)),
      paidGroups: reliable.map((r) => [...r.paidGroups!]).reduce((sum, c) => sum.map((x, n) => x + c[n]!)),
      times: at(k, false)
        .concat(at(k, true))
        .filter((r) => seeds.includes(r.seed))
        .map((r) => r.stepTime!),
    };
  });
}

/** Student's t at 97.5% for `df` degrees of freedom (a two-sided 95% interval); past 10, a close approximation. */
function t975(df: number): number {
  const TABLE = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228];
  return df <= TABLE.length ? TABLE[df - 1]! : 1.96 + 2.4 / df;
}

interface PerCallSuccess {
  q: number;
  lo: number;
  hi: number;
}

/** The least-squares slope of ys against xs. */
function slope(xs: readonly number[], ys: readonly number[]): number {
  const [mx, my] = [meanOf(xs), meanOf(ys)];
  const sxx = xs.reduce((s, x) => s + (x - mx) ** 2, 0);
  return xs.reduce((s, x, i) => s + (x - mx) * (ys[i]! - my), 0) / sxx;
}

/**
 * @internal A test seam: exported for test/rl/scale.test.ts.
 * q and its interval from the seeds' sampled reward at each length (q: the model's header).
 */
export function perCallSuccess(lengths: readonly MeasuredLength[]): PerCallSuccess {
  const calls = lengths.map((l) => l.calls);
  const slopes = lengths[0]!.seeds.map((_, i) =>
    slope(
      calls,
      lengths.map((l) => Math.log(l.reward[i]!)),
    ),
  );
  const m = meanOf(slopes);
  const half = t975(slopes.length - 1) * standardError(slopes);
  const capped = (x: number) => Math.min(1, Math.exp(x));
  return { q: capped(m), lo: capped(m - half), hi: capped(m + half) };
}

/** @internal Exported for test/rl/scale.test.ts (ScaleReport carries it). */
export interface ScaleModel {
  perCallSuccess: PerCallSuccess;
  /** K: the longest length fitted, where the difficulty is read. */
  anchorCalls: number;
  difficulty: Difficulty;
  time: TimeFit;
}

/**
 * @internal A test seam: exported for test/rl/scale.test.ts.
 * The model fitted to `lengths` (at least two).
 */
export function fitScaleModel(lengths: readonly MeasuredLength[]): ScaleModel {
  if (lengths.length < 2) throw new Error(`fitScaleModel: needs two lengths or more, got ${lengths.length}`);
  const anchor = lengths.at(-1)!;
  return {
    perCallSuccess: perCallSuccess(lengths),
    anchorCalls: anchor.calls,
    difficulty: difficultyFrom(anchor.paidGroups),
    time: fitStepTime(lengths.flatMap((l) => l.times.map((t) => ({ calls: l.calls, time: t })))),
  };
}

/** The faulty calculator's keep per call: each call's answer is true with 1 − its lie rate. */
const KEEP = 1 - GRPO.faultyRate;

interface ScalePrediction extends GroupShares {
  calls: number;
  faultyRatio: number;
  /** Sampling's share of a step, by the calculator's latency (ms a call). */
  samplingShare: Record<number, number>;
}

/**
 * @internal A test seam: exported for test/rl/scale.test.ts.
 * The model's figures at `calls`, sampling's share at each of `latencies`.
 */
export function predictAt(m: ScaleModel, calls: number, latencies: readonly number[]): ScalePrediction {
  const { q } = m.perCallSuccess;
  const shares = groupShares(m.difficulty, q ** (calls - m.anchorCalls), q);
  const flat = shares.allFail + shares.allPass;
  return {
    calls,
    ...shares,
    faultyRatio: KEEP ** calls,
    samplingShare: Object.fromEntries(latencies.map((ms) => [ms, modelSamplingShare(m.time, calls, ms, flat)])),
  };
}

interface HeldOutCheck {
  calls: number;
  predicted: { reward: number; allFail: number };
  measured: { reward: number; allFail: number };
  se: { reward: number; allFail: number };
  /** Both predictions within two of the seeds' standard errors of what was measured. */
  holds: boolean;
}

/**
 * @internal A test seam: exported for test/rl/scale.test.ts.
 * Fit on every length but the longest, predict the longest, and set it beside what was measured there.
 */
export function heldOutCheck(lengths: readonly MeasuredLength[]): HeldOutCheck {
  if (lengths.length < 3) throw new Error(`heldOutCheck: needs three lengths or more, got ${lengths.length}`);
  const last = lengths.at(-1)!;
  const fit = fitScaleModel(lengths.slice(0, -1));
  const { q } = fit.perCallSuccess;
  const p = groupShares(fit.difficulty, q ** (last.calls - fit.anchorCalls), q);
  const measured = { reward: meanOf(last.reward), allFail: meanOf(last.allFail) };
  const se = { reward: standardError(last.reward), allFail: standardError(last.allFail) };
  const within = (k: 'reward' | 'allFail') => Math.abs(p[k] - measured[k]) <= 2 * se[k];
  return {
    calls: last.calls,
    predicted: { reward: p.reward, allFail: p.allFail },
    measured,
    se,
    holds: within('reward') && within('allFail'),
  };
}

export interface ScaleReport {
  lengths: MeasuredLength[];
  model: ScaleModel;
  perCallSuccess: PerCallSuccess;
  heldOutCheck: HeldOutCheck;
  /** One a call count, 1..maxCalls. */
  predictions: ScalePrediction[];
  /** The first call count at which all-fail groups pass one half; null if none up to maxCalls. */
  halfAllFailAt: number | null;
}

/** The whole model from a reference file's runs; null where the file lacks what it reads (measuredLengths). */
export function scaleReport(
  runs: readonly ScaleRun[],
  opts: { latencies: readonly number[]; maxCalls: number },
): ScaleReport | null {
  const lengths = measuredLengths(runs);
  if (!lengths || lengths.length < 3) return null;
  const model = fitScaleModel(lengths);
  const predictions = Array.from({ length: opts.maxCalls }, (_, i) => predictAt(model, i + 1, opts.latencies));
  return {
    lengths,
    model,
    perCallSuccess: model.perCallSuccess,
    heldOutCheck: heldOutCheck(lengths),
    predictions,
    halfAllFailAt: predictions.find((p) => p.allFail > 0.5)?.calls ?? null,
  };
}
