/**
 * The plate's closing claims as figures, one world beside the other: from each world's reference
 * runs (the plate's credit and grader, seeds as the file holds them) and from the reader's run.
 * Pure: from the runs to what the figure's table says.
 *
 *   reward            the sampled reward over the last five steps, reliable calculator
 *   zeroSpread        groups that teach nothing (all 8 rewards equal), mean over the steps
 *   pushedDown        correct first calls given a negative advantage, mean over the steps
 *   faultyCap         the faulty calculator's reward over the reliable one's, last five steps:
 *                     each call can lie, so the cap falls with the calls (~0.7 a call)
 */
import { mean } from 'd3';
import { PLATE_SETTINGS, type RunSettings } from '../../pipeline/settings';
import type { GrpoStepView } from '../../protocol/episode-view';
import { runsLike, type ReferenceRun, type ReferenceRuns } from './reference';

export interface ClaimFigures {
  /** Seeds behind the reliable figures (0 for a reader's run). */
  seeds: number;
  reward: number | null;
  zeroSpread: number | null;
  pushedDown: number | null;
  faultyCap: number | null;
}

const last5 = (xs: readonly number[]): number => mean(xs.slice(-5))!;
const overSteps = (runs: readonly ReferenceRun[], k: 'zeroSpreadGroups' | 'correctCallsPushedDown') => {
  const per = runs.flatMap((r) => (r[k] ? [mean(r[k])!] : []));
  return per.length === runs.length && per.length > 0 ? mean(per)! : null;
};

/** A world's figures from its reference runs with the plate's settings; null without reliable ones. */
export function referenceClaims(ref: ReferenceRuns): ClaimFigures | null {
  const plate: RunSettings = { ...PLATE_SETTINGS, episode: ref.episode ?? PLATE_SETTINGS.episode };
  const reliable = runsLike(ref, plate);
  if (reliable.length === 0) return null;
  const faulty = runsLike(ref, { ...plate, faulty: true });
  const reward = mean(reliable, (r) => last5(r.meanReward))!;
  return {
    seeds: reliable.length,
    reward,
    zeroSpread: overSteps(reliable, 'zeroSpreadGroups'),
    pushedDown: overSteps(reliable, 'correctCallsPushedDown'),
    faultyCap: faulty.length > 0 && reward > 0 ? mean(faulty, (r) => last5(r.meanReward))! / reward : null,
  };
}

/** The same of a reader's run, from its GRPO steps (none before its first step); its cap needs two runs, so none. */
export function runClaims(steps: readonly GrpoStepView[]): ClaimFigures | null {
  const sampled = steps.filter((s) => s.meanReward !== null);
  if (sampled.length === 0) return null;
  const of = (k: 'zeroSpreadGroups' | 'correctCallsPushedDown') => mean(sampled, (s) => s[k] ?? undefined) ?? null;
  return {
    seeds: 0,
    reward: last5(sampled.map((s) => s.meanReward!)),
    zeroSpread: of('zeroSpreadGroups'),
    pushedDown: of('correctCallsPushedDown'),
    faultyCap: null,
  };
}
