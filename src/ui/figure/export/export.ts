/**
 * A run to take away: every record of every stage as JSON (with the episodes the viewer shows),
 * the curves as CSV, the GRPO steps as JSON Lines under TRL's metric names and the flat groups
 * under prime-rl's too (one object a step, for the tools a practitioner already uses), and a link
 * that reproduces the run's configuration. Pure functions; the figure turns them into downloads.
 */
import { SETTING_KEYS, SETTINGS, settingsFileLabel, textOf, type RunConfig } from '../../../pipeline/settings';
import type { GrpoStepView } from '../../../protocol/episode-view';
import type { RunView } from '../types';
import { metricsOf } from '../practitioner/vital-signs';

const EXPORT_FORMAT = 'multi-turn-rl-run/1';
/** Several runs in one file: a run of every length. */
const RUNS_FORMAT = 'multi-turn-rl-runs/1';

/** A run's configuration for a link: with `everyLength`, the link runs every length again, as Run every length did. */
export type LinkConfig = RunConfig & { everyLength?: boolean };

type Meta = { plate: string; backend: string | null; shown: GrpoStepView | null };

/** One run's record in a file: configuration, each stage's records (GRPO without episodes), the episodes of `shown`. */
function runRecord(run: RunView, shown: GrpoStepView | null) {
  const grpo = run.steps.map(({ episodes: _, sampled: __, ...figures }) => figures);
  return {
    config: run.config,
    stages: run.stages,
    from: run.from,
    pretrain: run.pretrain,
    sft: run.sft,
    grpo,
    summary: run.summary ?? null,
    metrics: metricsOf(run.steps),
    episodes: shown ? { step: shown.step, episodes: shown.episodes } : null,
  };
}

// The push's log-probs travel as Float32Arrays: plain arrays here (JSON would make them objects).
const plainArrays = (_: string, v: unknown) =>
  v instanceof Float32Array ? Array.from(v, (x) => Math.round(x * 1e6) / 1e6) : v;

/** The run as JSON: configuration, each stage's records (GRPO without episodes), the episodes of `shown`. */
export function runJson(run: RunView, meta: Meta): string {
  const head = { format: EXPORT_FORMAT, plate: meta.plate, backend: meta.backend };
  return JSON.stringify({ ...head, ...runRecord(run, meta.shown) }, plainArrays, 1);
}

/** A run of every length as one JSON file: each run as runJson has it, in order; `shown`'s episodes with its run. */
export function runsJson(runs: readonly RunView[], meta: Meta): string {
  const shownIn = (r: RunView) => (meta.shown && r.steps.includes(meta.shown) ? meta.shown : null);
  const head = { format: RUNS_FORMAT, plate: meta.plate, backend: meta.backend };
  return JSON.stringify({ ...head, runs: runs.map((r) => runRecord(r, shownIn(r))) }, plainArrays, 1);
}

const CSV_COLUMNS = [
  'stage',
  'step',
  'loss',
  'held_out',
  'single_digit_sums',
  'mean_reward',
  'copy_rate',
  'malformed_rate',
  'lies',
  'calls',
  'true_success',
  'rewarded_by_bug',
  'sampling_ms',
  'update_ms',
  'evaluation_ms',
] as const;

const cell = (x: number | null | undefined): string =>
  x === null || x === undefined ? '' : String(Math.round(x * 1e6) / 1e6);

/** A run's CSV rows, one per record of every stage, in order (runCsv's, without the header). */
function csvRows(run: RunView): string[][] {
  const rows: string[][] = [];
  for (const stage of ['pretrain', 'sft'] as const) {
    for (const r of run[stage])
      rows.push([
        stage,
        String(r.step),
        cell(r.loss),
        cell(r.heldOut?.success),
        cell(r.worksheet?.success),
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
      ]);
  }
  for (const r of run.steps) {
    const n = r.sampled;
    rows.push([
      'grpo',
      String(r.step),
      cell(r.loss),
      cell(r.heldOut),
      '',
      cell(r.meanReward),
      cell(n ? r.copied / n : null),
      cell(n ? r.malformed / n : null),
      n ? String(r.lies) : '',
      n ? String(r.calls) : '',
      cell(r.trueSuccess),
      n ? String(r.rewardedByBug) : '',
      cell(r.timeSplit.sampling),
      cell(r.timeSplit.update),
      cell(r.timeSplit.evaluation),
    ]);
  }
  return rows;
}

const csv = (rows: readonly (readonly string[])[]): string => rows.map((r) => r.join(',')).join('\n') + '\n';

/** One row per record of every stage, in order. */
export const runCsv = (run: RunView): string => csv([CSV_COLUMNS, ...csvRows(run)]);

/** Several runs' curves in one CSV: runCsv's columns after the run's episode and seed. */
export const runsCsv = (runs: readonly RunView[]): string =>
  csv([
    ['episode', 'seed', ...CSV_COLUMNS],
    ...runs.flatMap((run) => csvRows(run).map((r) => [run.config.episode, String(run.config.seed), ...r])),
  ]);

/**
 * What a reader of the JSON Lines must know to compare them with TRL's logs: the two standard
 * deviations differ (rl/metrics.ts, rl/advantages.ts), and μ goes by another name there.
 */
export const JSONL_FIELDS =
  'their reward_std divides by n − 1, as TRL’s does (torch’s std()), while this trainer’s advantages divide by the group’s population std (÷ n); μ, the updates per batch, is TRL’s num_iterations; reward/solve_none, reward/solve_all and reward/effective_batch_size are prime-rl’s names for the all-fail, the all-pass and the remaining groups';

/** One JSON object per GRPO step, under TRL's names (rl/metrics.ts), one a line. */
export const runJsonl = (run: RunView): string =>
  metricsOf(run.steps)
    .map((m) => JSON.stringify(m))
    .join('\n') + '\n';

/** Several runs' GRPO steps as JSON Lines, each line led by its run's episode (runs in order). */
export const runsJsonl = (runs: readonly RunView[]): string =>
  runs
    .flatMap((run) => metricsOf(run.steps).map((m) => JSON.stringify({ episode: run.config.episode, ...m })))
    .join('\n') + '\n';

/**
 * The standalone page's URL `href` with the options that set `config` up again (the page's other
 * options kept). Only that page reads its options from its URL: an embedded plate's host passes
 * its own link maker, or none (MultiTurnRLPlate's `reproduceUrl`).
 */
export function pageUrlFor(href: string, config: LinkConfig): string {
  const url = new URL(href);
  for (const k of SETTING_KEYS) url.searchParams.set(SETTINGS[k].name, textOf(k, config[k]));
  url.searchParams.set('seed', String(config.seed));
  url.searchParams.set('steps', String(config.steps));
  url.searchParams.set('autorun', '1');
  if (config.everyLength) url.searchParams.set('every-length', '1');
  else url.searchParams.delete('every-length');
  return url.href;
}

/** A file name that says what the run was: "plate-XXVI.3-run-agent-faulty-masking-off-crash-pass-seed-1". */
export const runFileName = (config: RunConfig): string =>
  `plate-XXVI.3-run-${settingsFileLabel(config)}-seed-${config.seed}`;
