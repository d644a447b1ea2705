/**
 * One group's rewards turned into advantages, written out with its own numbers — the arithmetic
 * the trainer does (rl/advantages.ts, the mean and the population standard deviation plus ε),
 * in words: "advantage = (1 − 0.625) / 0.484 = +0.77", and what TRL's n − 1 would give instead.
 * With the raw reward, "advantage = reward". A group whose advantages are all 0 says so: that sum
 * taught nothing this step.
 * Pure; the values it shows for each advantage are the ones the record says trained.
 */
import { groupStats, type AdvantageOptions } from '../../../rl/advantages';
import type { Advantage } from '../../../config';

interface AdvantageLine {
  reward: number;
  /** The advantage the trainer gave the episode (from its record). */
  advantage: number;
  /** "advantage = (1 − 0.625) / 0.484 = +0.77" */
  text: string;
}

export interface GroupArithmetic {
  kind: Advantage;
  n: number;
  /** How many episodes scored 1. */
  rewarded: number;
  mean: number;
  std: number;
  /** What each centred reward is divided by: std + ε as the trainer does it, or 1 (centred only). */
  divisor: number;
  /** "mean = 5 / 8 = 0.625"; null with the raw reward (no baseline). */
  meanText: string | null;
  /** "standard deviation = 0.484, the population's (÷ n = 8); the trainer divides by it plus 0.0001 …"; null when not divided. */
  stdText: string | null;
  /**
   * What TRL's GRPOTrainer would do instead: it divides by torch's `std()`, the sample standard
   * deviation (÷ n − 1), so its advantages come out smaller; null when not divided or no spread.
   */
  trlText: string | null;
  lines: AdvantageLine[];
  /** Every advantage is 0: the sum taught nothing this step. */
  taughtNothing: boolean;
  /** One sentence on the group as a whole. */
  summary: string;
}

/** 0.625 → "0.625", 0.5 → "0.5", 1 → "1": up to three decimals, no trailing zeros. */
const num = (x: number): string => String(Math.round(x * 1000) / 1000);
/** +0.77, −1.29, 0 (a true minus sign). */
export const signed = (x: number): string => (x === 0 ? '0' : `${x > 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`);
const minus = (a: number, b: number): string => `${num(a)} − ${num(b)}`;

const EIGHT = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
const count = (n: number): string => EIGHT[n] ?? String(n);

export function groupArithmetic(
  rewards: readonly number[],
  advantages: readonly number[],
  kind: Advantage,
  opts: AdvantageOptions,
): GroupArithmetic {
  if (rewards.length === 0 || rewards.length !== advantages.length)
    throw new Error(`groupArithmetic: ${rewards.length} rewards and ${advantages.length} advantages`);
  const { mean, std } = groupStats(rewards);
  const n = rewards.length;
  const rewarded = rewards.filter((r) => r > 0).length;
  const taughtNothing = advantages.every((a) => a === 0);
  const all =
    rewarded === n
      ? `all ${count(n)} scored 1`
      : rewarded === 0
        ? `all ${count(n)} scored 0`
        : `${count(rewarded)} of ${count(n)} scored 1`;
  if (kind === 'raw') {
    const lines = rewards.map((r, i) => ({
      reward: r,
      advantage: advantages[i]!,
      text: `advantage = reward = ${num(advantages[i]!)}`,
    }));
    const summary = taughtNothing
      ? `With the raw reward, ${all}: every advantage is 0, so this sum taught nothing this step.`
      : `With the raw reward there is no baseline: ${all}, and each rewarded episode is pushed up by its reward; the failed ones are not pushed at all.`;
    return {
      kind,
      n,
      rewarded,
      mean,
      std,
      divisor: 1,
      meanText: null,
      stdText: null,
      trlText: null,
      lines,
      taughtNothing,
      summary,
    };
  }
  const divisor = opts.scaleByStd ? std + opts.stdEps : 1;
  const meanText = `mean = ${num(rewards.reduce((s, r) => s + r, 0))} / ${n} = ${num(mean)}`;
  const stdText = opts.scaleByStd
    ? `standard deviation = ${num(std)}, the population's (÷ n = ${n}); the trainer divides by it plus ${opts.stdEps}, so a tiny spread cannot blow up`
    : null;
  const trlText =
    opts.scaleByStd && !taughtNothing && n > 1 ? trlDifference(rewards, advantages, mean, std, opts) : null;
  const lines = rewards.map((r, i) => {
    const a = advantages[i]!;
    if (taughtNothing) return { reward: r, advantage: a, text: `advantage = ${minus(r, mean)} = 0` };
    const body = opts.scaleByStd ? `(${minus(r, mean)}) / ${num(divisor)}` : minus(r, mean);
    return { reward: r, advantage: a, text: `advantage = ${body} = ${signed(a)}` };
  });
  const summary = taughtNothing
    ? `${all[0]!.toUpperCase()}${all.slice(1)}: every reward equals the mean, so every advantage is 0 — this sum taught nothing this step.`
    : `${all[0]!.toUpperCase()}${all.slice(1)}: the ones above the mean are pushed up, the ones below pushed down, and the advantages add up to 0.`;
  return { kind, n, rewarded, mean, std, divisor, meanText, stdText, trlText, lines, taughtNothing, summary };
}

/**
 * The same group under TRL's GRPOTrainer, which divides by torch's `std()` (Bessel's n − 1) plus
 * the same ε: the group's highest and lowest advantage both ways, so the reader who moves on to
 * TRL knows its numbers will differ by √((n − 1) / n) and by how much here.
 */
function trlDifference(
  rewards: readonly number[],
  advantages: readonly number[],
  mean: number,
  std: number,
  opts: AdvantageOptions,
): string {
  const n = rewards.length;
  const sampleStd = std * Math.sqrt(n / (n - 1));
  const trl = (r: number): number => (r - mean) / (sampleStd + opts.stdEps);
  const hi = rewards.indexOf(Math.max(...rewards));
  const lo = rewards.indexOf(Math.min(...rewards));
  const pair = (a: number, b: number): string => `${signed(a)} and ${signed(b)}`;
  return (
    `TRL's GRPOTrainer divides by torch's std(), which divides by n − 1 = ${n - 1}: ${num(sampleStd)} here, ` +
    `so it would give ${pair(trl(rewards[hi]!), trl(rewards[lo]!))} where this trainer gives ${pair(advantages[hi]!, advantages[lo]!)}.`
  );
}
