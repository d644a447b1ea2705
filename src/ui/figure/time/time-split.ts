/**
 * Where a GRPO step's time goes, from the worker's own records (GrpoRecord.timeSplit): the
 * median of each phase over the run's steps, their shares, and the sentence that ties them to the
 * plate. Pure; tested in Node.
 */
import { median, sum } from 'd3';
import { GRPO } from '../../../config';
import { SPLIT } from '../../../env/sums';
import type { GrpoStepView } from '../../../protocol/episode-view';

export type Phase = 'sampling' | 'update' | 'evaluation';
/** Bottom to top in the stacked bars, left to right in the readout. */
export const PHASES: readonly Phase[] = ['sampling', 'update', 'evaluation'];
export const PHASE_LABEL: Record<Phase, string> = {
  sampling: 'sampling',
  update: 'policy update',
  evaluation: 'held-out evaluation',
};

export interface SplitSummary {
  /** The steps it summarises: 1..last (step 0 only evaluates). */
  first: number;
  last: number;
  /** Median milliseconds per step of each phase. */
  ms: Record<Phase, number>;
  /** Each phase's share of the medians' sum. */
  share: Record<Phase, number>;
  /** The shares as the reader sees them: whole percents that add up to 100. */
  percent: Record<Phase, number>;
  largest: Phase;
}

/**
 * Shares in whole percents that add up to 100, by the largest remainder: each phase gets its
 * share rounded down, then the points still missing go to the largest fractions left over.
 * Rounding each alone can show "24% · 66% · 11%", a step of 101%. No time at all: all 0.
 */
function wholePercents(share: Record<Phase, number>): Record<Phase, number> {
  const exact = PHASES.map((p) => share[p] * 100);
  const whole = exact.map(Math.floor);
  if (sum(exact) === 0) return Object.fromEntries(PHASES.map((p) => [p, 0])) as Record<Phase, number>;
  const missing = Math.round(sum(exact)) - sum(whole);
  const byRemainder = PHASES.map((_, i) => i).sort((i, j) => exact[j]! - whole[j]! - (exact[i]! - whole[i]!));
  for (const i of byRemainder.slice(0, missing)) whole[i]! += 1;
  return Object.fromEntries(PHASES.map((p, i) => [p, whole[i]!])) as Record<Phase, number>;
}

export function splitSummary(steps: readonly GrpoStepView[]): SplitSummary | null {
  const stepped = steps.filter((r) => r.step > 0);
  if (stepped.length === 0) return null;
  const ms = Object.fromEntries(PHASES.map((p) => [p, median(stepped, (r) => r.timeSplit[p]) ?? 0])) as Record<
    Phase,
    number
  >;
  const total = sum(PHASES, (p) => ms[p]) || 1;
  const share = Object.fromEntries(PHASES.map((p) => [p, ms[p] / total])) as Record<Phase, number>;
  const largest = PHASES.reduce((a, b) => (ms[b] > ms[a] ? b : a));
  return { first: stepped[0]!.step, last: stepped.at(-1)!.step, ms, share, percent: wholePercents(share), largest };
}

/** "sampling 45 ms (38%) · policy update 60 ms (50%) · held-out evaluation 14 ms (12%)" */
export const splitReadout = (s: SplitSummary): string =>
  PHASES.map((p) => `${PHASE_LABEL[p]} ${Math.round(s.ms[p])} ms (${s.percent[p]}%)`).join(' · ');

/**
 * The plate says sampling episodes becomes the dominant cost of training; the sentence says
 * what this run measured, and only then how that claim follows — never the claim as if measured.
 */
export function splitSentence(s: SplitSummary): string {
  if (s.largest === 'sampling') {
    return `Sampling the episodes — the model writing one character per call, the calculator answering each call — is the largest part of a step here (${s.percent.sampling}%): even at this size, sampling episodes becomes the dominant cost of training, as the plate says.`;
  }
  return (
    `Here the ${PHASE_LABEL[s.largest]} is the largest part of a step (${s.percent[s.largest]}%); sampling takes ${s.percent.sampling}%. ` +
    'Sampling writes one character per model call, each waiting for the one before, and waits for the tool at every call, while the update takes all of a batch’s characters in one pass: ' +
    'with episodes of many turns, as in the plate’s large runs, sampling episodes becomes the dominant cost of training.'
  );
}

/** How a shared batch's time is split, in a sentence (the rows of GrpoStage's shared batch). */
export const SHARED_BATCH_NOTE =
  `The held-out evaluation runs in one batch with the next step’s sampling (${SPLIT.heldOut.length} greedy rows beside ${GRPO.sumsPerStep * GRPO.episodesPerSum} sampled ones); ` +
  'that batch’s time is split between them by rows, since it computes every row at every position.';
