/**
 * Sampling's share of a GRPO step, carried to many calls (the scale model's time part, rl/scale.ts),
 * from where the reference runs' steps spent their time (scripts/reference-runs.ts records each
 * run's StepTime: the medians over its steps of rl/grpo.ts's TimeSplit, on the machine that made
 * the file, Node's WASM backend, an instant calculator).
 *
 *   the batch     the next step's 64 sampled rows and the held-out evaluation's 30 run as one
 *                 lockstep batch, a forward pass a character position, its time split between
 *                 them by rows (rl/grpo.ts): so much a character of the episode, the median of
 *                 the runs' own (batch ms ÷ episode characters); times the characters a call adds,
 *                 the per-call sampling time. A calculator that takes L ms adds L a call, as a
 *                 harness that answers a round of calls together waits (this page's lockstep batch
 *                 waits at every position where some row's call ends, so more as rows drift apart:
 *                 there the line is a floor)
 *   the update    so much a character it runs forward and backward, the median of the runs' own
 *                 (update ms ÷ its characters): the per-character update time. It runs only the
 *                 episodes of groups with spread (rl/update.ts's updateRows; all of them when no
 *                 group has any), so flat groups cost it nothing
 *   the episode   its characters: a fixed part and a part a call (least squares)
 *
 * Medians of each run's own rates, not a fit of milliseconds across runs: the file's runs were
 * timed one after another on a shared machine whose load moved the milliseconds by 2× between
 * runs, and a run's rates share its load. With an instant calculator the share then moves only
 * with the flat groups: sampling and the update both grow with the episode's characters.
 *
 * Sampling's share = the sampled rows' part of the batch ÷ (the batch + the update).
 */
import { GRPO } from '../config';
import { WORLDS } from '../env/world';
import { meanOf } from './claims';

/** Where a run's steps spent their time: medians over its steps (ms), and what the update and an episode held. */
export interface StepTime {
  samplingMs: number;
  updateMs: number;
  evaluationMs: number;
  /** Characters of the episodes the update ran (updateRows), a step. */
  updateChars: number;
  /** Characters of a sampled episode, prompt included. */
  episodeChars: number;
}

/** A line a + b·x. */
interface Line {
  fixed: number;
  per: number;
}

export interface TimeFit {
  /** The lockstep batch's ms a character position of an episode. */
  batchMsPerChar: number;
  /** The update's ms a character it runs. */
  updateMsPerChar: number;
  /** A sampled episode's characters, against the calls. */
  episodeChars: Line;
  /** The sampled rows' share of the batch. */
  sampledRows: number;
}

/** @internal A test seam: exported for test/rl/scale.test.ts. The least-squares line through (x, y). */
export function fitLine(points: readonly (readonly [number, number])[]): Line {
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const [mx, my] = [meanOf(xs), meanOf(ys)];
  const sxx = xs.reduce((s, x) => s + (x - mx) ** 2, 0);
  if (!(sxx > 0)) throw new Error(`fitLine: needs two different x, got ${JSON.stringify(xs)}`);
  const per = xs.reduce((s, x, i) => s + (x - mx) * (ys[i]! - my), 0) / sxx;
  return { fixed: my - per * mx, per };
}

const at = (l: Line, x: number): number => l.fixed + l.per * x;

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** The time model from each run's StepTime at its number of calls. */
export function fitStepTime(runs: readonly { calls: number; time: StepTime }[]): TimeFit {
  if (runs.length === 0) throw new Error('fitStepTime: no runs to read');
  const sampled = GRPO.sumsPerStep * GRPO.episodesPerSum;
  return {
    batchMsPerChar: median(runs.map(({ time: t }) => (t.samplingMs + t.evaluationMs) / t.episodeChars)),
    updateMsPerChar: median(runs.map(({ time: t }) => t.updateMs / t.updateChars)),
    episodeChars: fitLine(runs.map((r) => [r.calls, r.time.episodeChars])),
    sampledRows: sampled / (sampled + WORLDS['one-call'].split.heldOut.length),
  };
}

/** The batch's ms a call: a character position's times the characters a call adds. */
export const samplingMsPerCall = (f: TimeFit): number => f.batchMsPerChar * f.episodeChars.per;

/** Sampling's share of a measured step (its medians). */
export const measuredSamplingShare = (t: StepTime): number =>
  t.samplingMs / (t.samplingMs + t.updateMs + t.evaluationMs);

/**
 * The model's sampling share at `calls` with a calculator of `latencyMs` a call, when `flat` of
 * the groups have no spread (the update skips them, unless every group of the step is flat).
 */
export function modelSamplingShare(f: TimeFit, calls: number, latencyMs: number, flat: number): number {
  const chars = at(f.episodeChars, calls);
  const batch = f.batchMsPerChar * chars + calls * latencyMs;
  const rows = GRPO.sumsPerStep * GRPO.episodesPerSum * (1 - flat + flat ** GRPO.sumsPerStep);
  const update = f.updateMsPerChar * rows * chars;
  return (f.sampledRows * batch) / (batch + update);
}
