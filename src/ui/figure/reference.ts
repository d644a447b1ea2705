/**
 * Reference runs: curves from several seeds, made beforehand by the Node workshop and shipped as
 * `reference-runs.json`. The figure draws their spread as a faint band, labelled as precomputed.
 *
 * Shape (as scripts/reference-runs.ts writes it; fractions in [0, 1]; index = GRPO step;
 * other fields, such as each run's summary, are allowed and ignored):
 *   { "note": string, "placeholder"?: boolean, "steps": 40,
 *     "episode"?: "one-call" | "two-calls" | "three-calls",   // the world of the file's runs (absent: each run's, else one call)
 *     "runs": [{ "seed": number, "faulty": boolean,
 *                "episode"?: …, "agent"?: "own" | "one-call" | "three-calls",   // absent: the file's world, its own agent
 *                "masking"?: boolean, "advantage"?: "group" | "raw",   // absent: the plate's (on, group)
 *                "grader"?: "exact" | "crash-pass" | "trusts-tool",     // absent: the plate's (exact)
 *                "heldOut": number[steps + 1],     // steps 0..steps
 *                "meanReward": number[steps],      // steps 1..steps
 *                "trueSuccess"?: number[steps],    // sampled episodes whose answer is the true sum (absent: exact grader, = meanReward)
 *                "copyRate"?: number[steps],       // sampled episodes whose answer copies the tool's result
 *                "malformed"?: number[steps],      // sampled episodes with a malformed call or answer
 *                "zeroSpreadGroups"?: number[steps],        // groups whose rewards are all equal
 *                "allFailGroups"?: number[steps],           // of them, groups whose every episode failed
 *                "correctCallsPushedDown"?: number[steps],    // correct first calls given a negative advantage
 *                "paidGroups"?: number[9],         // groups over the steps by how many of their 8 episodes were paid
 *                "stepTime"?: { samplingMs, updateMs, evaluationMs, updateChars, episodeChars } }], // rl/scale-time.ts
 *     "sft"?: { "steps": 200, "every": 10,           // fine-tuning the shipped worksheet model
 *               "runs": [{ "seed": number,
 *                          "heldOut": number[steps / every + 1],   // steps 0, every, …, steps
 *                          "loss": number[steps] }] } }          // steps 1..steps
 */
import { useEffect, useState } from 'react';
import { agentOf } from '../../env/world';
import { isChoice, PLATE_SETTINGS, SETTING_KEYS, type RunSettings, type SettingKey } from '../../pipeline/settings';
import { FIX_FILES } from '../../protocol/files';
import { GRPO } from '../../config';
import type { StepTime } from '../../rl/scale';
import type { BandPoint } from './types';

/** A reference run: its seed, the settings it was made with where they are not the plate's, its curves. */
export interface ReferenceRun extends Partial<RunSettings> {
  seed: number;
  faulty: boolean;
  heldOut: number[];
  meanReward: number[];
  trueSuccess?: number[];
  copyRate?: number[];
  malformed?: number[];
  zeroSpreadGroups?: number[];
  allFailGroups?: number[];
  correctCallsPushedDown?: number[];
  /** What the scale model reads (rl/scale.ts): the groups by paid episodes, where a step's time went. */
  paidGroups?: number[];
  stepTime?: StepTime;
  /** What a practitioner reads of the run (scripts/reference-runs.ts): the clip's mean fractions, the entropy's ends. */
  vitals?: { clipRegion: number; entropyFirst: number; entropyLast: number };
}

export type ReferenceMetric =
  | 'heldOut'
  | 'meanReward'
  | 'trueSuccess'
  | 'copyRate'
  | 'malformed'
  | 'zeroSpreadGroups'
  | 'allFailGroups'
  | 'allPassGroups'
  | 'correctCallsPushedDown';

/** The per-step curves a run may have besides held-out and the reward. */
const OPTIONAL_CURVES = [
  'trueSuccess',
  'copyRate',
  'malformed',
  'zeroSpreadGroups',
  'allFailGroups',
  'correctCallsPushedDown',
] as const;

/**
 * The settings a reference run is matched on: all but where it starts (they all start from the
 * shipped agent, and a run fine-tuned here is compared with them), the temperature (they are
 * all at 1; referenceBand draws no band at another) and the tool's latency (it changes how long
 * a step takes, not what it learns: they are all made with an instant calculator); the agent by
 * the world whose agent played (`own` in the two- and three-call worlds is the three-call agent).
 */
const MATCHED = SETTING_KEYS.filter(
  (k) => k !== 'start' && k !== 'temperature' && k !== 'toolLatencyMs' && k !== 'agent',
);

const settingOf = <K extends SettingKey>(r: ReferenceRun, k: K): RunSettings[K] =>
  (r[k] ?? PLATE_SETTINGS[k]) as RunSettings[K];

/** The reference runs made with `config`'s settings (a setting a run does not record is the plate's). */
export function runsLike(ref: ReferenceRuns, config: RunSettings): ReferenceRun[] {
  return ref.runs.filter(
    (r) =>
      MATCHED.every((k) => settingOf(r, k) === config[k]) &&
      agentOf({ episode: settingOf(r, 'episode'), agent: settingOf(r, 'agent') }) === agentOf(config),
  );
}

/**
 * A run's curve of `metric`, if it has one: under the exact grader true success is the mean
 * reward itself; with 0/1 rewards the all-pass groups are the flat ones less the all-fail ones.
 */
export function curveOf(run: ReferenceRun, metric: ReferenceMetric): number[] | undefined {
  if (metric === 'trueSuccess' && !run.trueSuccess && (run.grader ?? 'exact') === 'exact') return run.meanReward;
  if (metric === 'allPassGroups') {
    const { zeroSpreadGroups: zero, allFailGroups: fail } = run;
    return zero && fail && zero.map((z, i) => Math.round((z - fail[i]!) * 1e3) / 1e3);
  }
  return run[metric];
}

interface SftReferenceRun {
  seed: number;
  heldOut: number[];
  loss: number[];
}

export interface ReferenceRuns {
  note: string;
  /** The world of every run in the file; parseReferenceRuns writes it into each run too. */
  episode?: RunSettings['episode'];
  /** True while the file holds stand-in curves rather than real workshop runs. */
  placeholder?: boolean;
  steps: number;
  runs: ReferenceRun[];
  sft?: { steps: number; every: number; runs: SftReferenceRun[] };
}

const isFractions = (xs: unknown, n: number): xs is number[] =>
  Array.isArray(xs) && xs.length === n && xs.every((v) => typeof v === 'number' && v >= 0 && v <= 1);

const isCounts = (xs: unknown, n: number): xs is number[] =>
  Array.isArray(xs) && xs.length === n && xs.every((v) => Number.isInteger(v) && v >= 0);

const STEP_TIME_KEYS = ['samplingMs', 'updateMs', 'evaluationMs', 'updateChars', 'episodeChars'] as const;
const isStepTime = (t: unknown): t is StepTime =>
  typeof t === 'object' &&
  t !== null &&
  STEP_TIME_KEYS.every((k) => {
    const v = (t as Record<string, unknown>)[k];
    return typeof v === 'number' && Number.isFinite(v) && v >= 0;
  });

/**
 * Checks the file's shape; throws naming the first thing that is wrong.
 * @internal A test seam: exported for the tests of the file's checks.
 */
export function parseReferenceRuns(json: unknown): ReferenceRuns {
  const r = json as Partial<ReferenceRuns> | null;
  if (typeof r !== 'object' || r === null) throw new Error('reference runs: not a JSON object');
  if (!Number.isInteger(r.steps) || r.steps! < 1)
    throw new Error(`reference runs: steps is ${JSON.stringify(r.steps)}`);
  if (!Array.isArray(r.runs)) throw new Error('reference runs: runs is not a list');
  r.runs.forEach((run, i) => {
    if (typeof run.faulty !== 'boolean' || !Number.isInteger(run.seed))
      throw new Error(`reference runs: run ${i} lacks seed or faulty`);
    if (!isFractions(run.heldOut, r.steps! + 1))
      throw new Error(`reference runs: run ${i} heldOut is not ${r.steps! + 1} fractions`);
    if (!isFractions(run.meanReward, r.steps!))
      throw new Error(`reference runs: run ${i} meanReward is not ${r.steps} fractions`);
    for (const k of OPTIONAL_CURVES) {
      if (run[k] !== undefined && !isFractions(run[k], r.steps!))
        throw new Error(`reference runs: run ${i} ${k} is not ${r.steps} fractions`);
    }
    if (run.paidGroups !== undefined && !isCounts(run.paidGroups, GRPO.episodesPerSum + 1))
      throw new Error(`reference runs: run ${i} paidGroups is not ${GRPO.episodesPerSum + 1} counts`);
    if (run.stepTime !== undefined && !isStepTime(run.stepTime))
      throw new Error(`reference runs: run ${i} stepTime is not five numbers ≥ 0`);
    for (const k of SETTING_KEYS) {
      if (run[k] !== undefined && !isChoice(k, run[k]))
        throw new Error(`reference runs: run ${i} ${k} is ${JSON.stringify(run[k])}`);
    }
  });
  if (r.sft !== undefined) parseSft(r.sft);
  if (r.episode !== undefined && !isChoice('episode', r.episode))
    throw new Error(`reference runs: episode is ${JSON.stringify(r.episode)}`);
  // A file holds one world's runs: each run says so, so runsLike matches it on the world too.
  const episode = r.episode ?? PLATE_SETTINGS.episode;
  return { ...(r as ReferenceRuns), runs: r.runs.map((run) => ({ ...run, episode: run.episode ?? episode })) };
}

function parseSft(sft: unknown): void {
  const f = sft as Partial<NonNullable<ReferenceRuns['sft']>> | null;
  if (
    typeof f !== 'object' ||
    f === null ||
    !Number.isInteger(f.steps) ||
    !Number.isInteger(f.every) ||
    f.every! < 1 ||
    !Array.isArray(f.runs)
  ) {
    throw new Error('reference runs: sft needs steps, every and runs');
  }
  const points = Math.floor(f.steps! / f.every!) + 1;
  f.runs.forEach((run, i) => {
    if (!isFractions(run.heldOut, points))
      throw new Error(`reference runs: sft run ${i} heldOut is not ${points} fractions`);
    if (
      !Array.isArray(run.loss) ||
      run.loss.length !== f.steps ||
      !run.loss.every((v) => typeof v === 'number' && v >= 0)
    ) {
      throw new Error(`reference runs: sft run ${i} loss is not ${f.steps} numbers`);
    }
  });
}

const spread = (columns: number[][], stepOf: (i: number) => number): BandPoint[] =>
  columns[0]!.map((_, i) => {
    const values = columns.map((c) => c[i]!);
    return { step: stepOf(i), lo: Math.min(...values), hi: Math.max(...values) };
  });

/** The fine-tuning runs' spread: held-out where measured, loss per step. */
export function sftBand(ref: ReferenceRuns): { score: BandPoint[]; loss: BandPoint[] } | undefined {
  const sft = ref.sft;
  if (!sft || sft.runs.length === 0) return undefined;
  return {
    score: spread(
      sft.runs.map((r) => r.heldOut),
      (i) => i * sft.every,
    ),
    loss: spread(
      sft.runs.map((r) => r.loss),
      (i) => i + 1,
    ),
  };
}

/** Min–max spread over the runs made like `config`, per step; empty when there are none (another temperature). */
export function referenceBand(ref: ReferenceRuns, config: RunSettings, metric: ReferenceMetric): BandPoint[] {
  const curves =
    config.temperature === 1
      ? runsLike(ref, config).flatMap((r) => {
          const c = curveOf(r, metric);
          return c ? [c] : [];
        })
      : [];
  if (curves.length === 0) return [];
  const first = metric === 'heldOut' ? 0 : 1;
  return spread(curves, (i) => i + first);
}

/** unavailable: a sentence for the reader (the reader's own run does not depend on the file); why: its cause alone. */
export type ReferenceState = { runs: ReferenceRuns } | { unavailable: string; why: string } | null;

/** The file's absence as the charts say it: the band, and what it leaves alone. */
export const bandNotShown = (why: string): string => `The precomputed reference band is not shown: ${why}.`;
const unavailableNote = (why: string): string => `${bandNotShown(why)} Your own run is not affected.`;

/** The file at `url`, fetched once `url` is given (null: not yet, the figure is not near). */
export function useReferenceRuns(url: string | null): ReferenceState {
  const [state, setState] = useState<ReferenceState>(null);
  useEffect(() => {
    if (url === null) return;
    const abort = new AbortController();
    // Named by its URL (a bundler serves it under a hashed name), with the setting that fixes it.
    const missing = (why: string) => new Error(`${url} did not load (${why}); ${FIX_FILES}`);
    fetch(url, { signal: abort.signal })
      .then(async (res) => {
        if (!res.ok) throw missing(`HTTP ${res.status}`);
        if (res.headers.get('content-type')?.includes('text/html'))
          throw missing('the server sent an HTML page instead');
        let json: unknown;
        try {
          json = await res.json();
        } catch {
          throw new Error(`${url} is not valid JSON`);
        }
        return parseReferenceRuns(json);
      })
      .then((runs) => setState({ runs }))
      .catch((e: Error) => {
        if (abort.signal.aborted) return;
        const why =
          e instanceof TypeError
            ? `${url} could not be fetched (${e.message}); ${FIX_FILES}`
            : e.message.replace(/^reference runs: /, `${url}: `);
        setState({ unavailable: unavailableNote(why), why });
      });
    return () => abort.abort();
  }, [url]);
  return state;
}
