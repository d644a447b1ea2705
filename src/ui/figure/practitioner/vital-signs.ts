/**
 * The run's vital signs: the numbers a GRPO practitioner reads, each under the name TRL's
 * GRPOTrainer logs it (src/rl/metrics.ts) — the flat groups under prime-rl's names too — with what
 * to watch for. Pure: from a run's records
 * to what the figure draws.
 */
import { format } from 'd3';
import { stepMetrics, type StepMetrics } from '../../../rl/metrics';
import type { GrpoStepView } from '../../../protocol/episode-view';
import { pct } from '../../format';

type VitalName = Exclude<keyof StepMetrics, 'step' | 'reward' | `clip_ratio/${string}`>;

export interface Vital {
  name: VitalName;
  /** What it is, in the reader's words. */
  label: string;
  /** What to watch for, in one line. */
  watch: string;
  /** A fraction (0–100%), or a plain number on an axis from 0 to `max` (or to the data's top). */
  kind: 'fraction' | 'number';
  max?: number;
  /** The same number as prime-rl's orchestrator logs it (rl/metrics.ts): under its name, or as 1 − it. */
  primeRl?: { name: string; oneMinus?: boolean };
}

export const VITALS: readonly Vital[] = [
  {
    name: 'frac_reward_zero_std',
    label: 'Groups that teach nothing (all 8 rewards equal)',
    watch:
      'Every advantage in such a group is 0: near 100%, the loss and the gradient are all but zero (“loss is 0”), however long it trains.',
    kind: 'fraction',
    primeRl: { name: 'reward/effective_batch_size', oneMinus: true },
  },
  {
    name: 'frac_reward_zero_std/all_fail',
    label: 'Of them, groups whose 8 episodes all failed (ours, not TRL’s)',
    watch:
      'No reward in the group at all: the sparse reward a longer episode brings. Rising, the agent meets sums it cannot solve even once in 8 tries.',
    kind: 'fraction',
    primeRl: { name: 'reward/solve_none' },
  },
  {
    name: 'frac_reward_zero_std/all_pass',
    label: 'And groups all 8 of which were paid (ours, not TRL’s)',
    watch:
      'Solved sums teach nothing either: this share grows as the agent gets better, not as the reward gets sparse.',
    kind: 'fraction',
    primeRl: { name: 'reward/solve_all' },
  },
  {
    name: 'reward_std',
    label: 'Spread of the rewards within a group (mean std)',
    watch: 'Falling toward 0 as the groups agree: less and less to compare, so less to learn from.',
    kind: 'number',
    max: 0.6,
  },
  {
    name: 'entropy',
    label: 'Policy entropy (nats a character; at most ln 16 = 2.77)',
    watch:
      'A slow fall is the policy growing sure; a collapse toward 0 early on ends exploration: every episode of a group alike.',
    kind: 'number',
  },
  {
    name: 'completions/mean_length',
    label: 'The model’s characters per episode (the environment’s not counted)',
    watch:
      'A jump or a drop means the episodes changed shape: a call skipped, an answer cut short, a ramble to the limit.',
    kind: 'number',
  },
  {
    name: 'tools/call_frequency',
    label: 'Calls the model began per episode',
    watch:
      'Below the calls the task needs (one a term after the first: one, two or three), the agent is learning to skip the tool.',
    kind: 'number',
  },
  {
    name: 'tools/failure_frequency',
    label: 'Calls that failed (malformed or over-long)',
    watch: 'Rising: the calls break and the calculator never runs; every such episode earns 0.',
    kind: 'fraction',
  },
];

const NUMBER = format('.2f');
export const formatVital = (v: Vital): ((x: number) => string) => (v.kind === 'fraction' ? pct : NUMBER);

/**
 * A vital sign's first and latest value, each window named — "13% → 25% (step 1 → step 40)" —
 * so a reader never takes it for the mean of a span, as the readouts beside the curves are; "—"
 * before a step has sampled.
 */
export function vitalReadout(v: Vital, metrics: readonly StepMetrics[]): string {
  const first = metrics[0];
  const last = metrics.at(-1);
  if (!first || !last) return '—';
  const fmt = formatVital(v);
  return `${fmt(first[v.name])} → ${fmt(last[v.name])} (step ${first.step} → step ${last.step})`;
}

/** Each sampled step's metrics, in order (step 0 samples nothing). */
export const metricsOf = (steps: readonly GrpoStepView[]): StepMetrics[] => steps.flatMap((r) => stepMetrics(r) ?? []);

/** [step, value] points of one metric. */
export const metricPoints = (metrics: readonly StepMetrics[], name: keyof StepMetrics): [number, number][] =>
  metrics.map((m) => [m.step, m[name]]);

/** The clip's three fractions, TRL's names with the reader's. */
export const CLIP_SERIES = [
  { name: 'clip_ratio/low_mean', label: 'below 1 − ε, advantage negative' },
  { name: 'clip_ratio/high_mean', label: 'above 1 + ε, advantage positive' },
  { name: 'clip_ratio/region_mean', label: 'clipped (either side)' },
] as const satisfies readonly { name: keyof StepMetrics; label: string }[];
