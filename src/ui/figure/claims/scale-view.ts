/**
 * The closing claims at the plate's scale, for the three scale charts: what the three-call agent's
 * reference runs measured at one to three calls (each seed's mean over its 40 steps: the seeds'
 * mean and spread) beside the scale model's line from 1 to 300 calls (rl/scale.ts), the crossing
 * each chart names, and the model's check at three calls in words. Pure: from the reference file
 * to what the charts draw and say; every number is computed from the file, none written here.
 */
import { SETTINGS } from '../../../pipeline/settings';
import { meanOf } from '../../../rl/claims';
import { scaleReport, type MeasuredLength, type ScaleReport } from '../../../rl/scale';
import { samplingMsPerCall } from '../../../rl/scale-time';
import { pct } from '../../format';
import type { ReferenceRuns } from '../reference';

/** The plate's "episodes of hundreds of turns": the charts' right end. */
export const SCALE_CALLS = 300;

/** Measured at one length: the seeds' mean and their spread. */
interface ScalePoint {
  calls: number;
  mean: number;
  lo: number;
  hi: number;
}

/** A measured figure, and the model's line for it (one value a call count, 1..SCALE_CALLS). */
interface ScaleSeries {
  label: string;
  measured: ScalePoint[];
  model: number[];
}

export interface ScaleChartView {
  key: 'sparser' | 'credit' | 'sampling';
  /** The plate's claim, and what the chart draws. */
  claim: string;
  name: string;
  series: ScaleSeries[];
  /** The model's lines that no measurement stands beside (a slow calculator). */
  modelOnly: { label: string; model: number[] }[];
  /** A point the words name on the model's line (a crossing, a peak); null where there is none. */
  mark: { calls: number; value: number; label: string } | null;
  /** What is measured and what is modelled, with the named point, in words. */
  words: string;
}

export interface ScaleView {
  q: ScaleReport['perCallSuccess'];
  seeds: number;
  /** The model in one line, its q named: the charts' key. */
  modelWords: string;
  /** Whether it holds at three calls, with the numbers. */
  checkWords: string;
  holds: boolean;
  charts: ScaleChartView[];
}

const measured = (lengths: readonly MeasuredLength[], f: (l: MeasuredLength) => number[]): ScalePoint[] =>
  lengths.map((l) => {
    const xs = f(l);
    return { calls: l.calls, mean: meanOf(xs), lo: Math.min(...xs), hi: Math.max(...xs) };
  });

const one = (x: number) => `${(100 * x).toFixed(1)}%`;
const trend = (points: readonly ScalePoint[]) => points.map((p) => one(p.mean)).join(' → ');
const callsAt = (k: number) => `${k} call${k === 1 ? '' : 's'}`;

function checkWords(r: ScaleReport): string {
  const h = r.heldOutCheck;
  const fitted = r.lengths.slice(0, -1).map((l) => l.calls);
  const off = (k: 'reward' | 'allFail') => Math.abs(h.predicted[k] - h.measured[k]) / h.se[k];
  const figure = (k: 'reward' | 'allFail', what: string) =>
    `${what}: predicted ${one(h.predicted[k])}, measured ${one(h.measured[k])} ± ${one(h.se[k])} (${off(k).toFixed(1)} standard errors off)`;
  return (
    `Checked where it can be: fitted on ${fitted.map(callsAt).join(' and ')} alone, the model predicts ${callsAt(h.calls)} — ` +
    `${figure('reward', 'sampled reward')}; ${figure('allFail', 'all-fail groups')} (± one standard error over ${r.lengths[0]!.seeds.length} seeds). ` +
    (h.holds
      ? `Both within two standard errors: the model holds at ${callsAt(h.calls)}.`
      : `Not both within two standard errors: the model does not hold at ${callsAt(h.calls)}.`)
  );
}

function sparser(r: ScaleReport): ScaleChartView {
  const allFail = measured(r.lengths, (l) => l.allFail);
  const reward = measured(r.lengths, (l) => l.reward);
  const half = r.halfAllFailAt;
  return {
    key: 'sparser',
    claim: 'Rewards become sparser',
    name: 'Sampled reward and groups whose 8 episodes all failed (reliable)',
    series: [
      { label: 'reward', measured: reward, model: r.predictions.map((p) => p.reward) },
      { label: 'all-fail', measured: allFail, model: r.predictions.map((p) => p.allFail) },
    ],
    modelOnly: [],
    mark: half === null ? null : { calls: half, value: r.predictions[half - 1]!.allFail, label: `half at ~${half}` },
    words:
      `Measured at one to three calls: sampled reward ${trend(reward)}, all-fail groups ${trend(allFail)}. ` +
      (half === null
        ? `Modelled, all-fail groups stay under half up to ${SCALE_CALLS} calls (${one(r.predictions.at(-1)!.allFail)} there).`
        : `Modelled, all-fail groups pass half at about ${half} calls: from there most groups teach nothing.`),
  };
}

function credit(r: ScaleReport): ScaleChartView {
  const points = measured(r.lengths, (l) => l.pushedDown);
  const model = r.predictions.map((p) => p.pushedDown);
  const peak = model.indexOf(Math.max(...model));
  return {
    key: 'credit',
    claim: 'Credit is spread over every action',
    name: 'Correct first calls pushed down (reliable)',
    series: [{ label: 'pushed down', measured: points, model }],
    modelOnly: [],
    mark: { calls: peak + 1, value: model[peak]!, label: `peak ~${peak + 1}` },
    words:
      `Measured: ${trend(points)} at one to three calls. Modelled, the share rises to ${one(model[peak]!)} at about ${callsAt(peak + 1)}, ` +
      `then falls (${one(model.at(-1)!)} at ${SCALE_CALLS}): once groups stop being paid they push nothing down, right or wrong.`,
  };
}

/** The first call count from which a line stays over half up to the last, or null. */
function overHalfFrom(line: readonly number[]): number | null {
  let last = line.length - 1;
  while (last >= 0 && line[last]! > 0.5) last--;
  return last === line.length - 1 ? null : last + 2;
}

function sampling(r: ScaleReport): ScaleChartView {
  const [instant, ...slow] = SETTINGS.toolLatencyMs.choices;
  const line = (ms: number) => r.predictions.map((p) => p.samplingShare[ms]!);
  const points = measured(r.lengths, (l) => l.samplingShare);
  const t = r.model.time;
  const said = SETTINGS.toolLatencyMs.choices.map((ms) => {
    const xs = line(ms);
    const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
    const from = overHalfFrom(xs);
    const name = ms === 0 ? 'instant' : `at ${ms} ms a call`;
    return {
      ms,
      from,
      words:
        from !== null
          ? `${name} over half a step from ${callsAt(from)} on (${pct(lo)}–${pct(hi)})`
          : hi <= 0.5
            ? `${name} ${pct(lo)}–${pct(hi)}, under half at every length`
            : `${name} ${pct(lo)}–${pct(hi)}, about half`,
    };
  });
  const first = said.find((x) => x.from !== null);
  return {
    key: 'sampling',
    claim: 'Sampling becomes the dominant cost',
    name: 'Sampling’s share of a step',
    series: [{ label: 'instant', measured: points, model: line(instant!) }],
    modelOnly: slow.map((ms) => ({ label: `${ms} ms`, model: line(ms) })),
    mark: first
      ? {
          calls: first.from!,
          value: line(first.ms)[first.from! - 1]!,
          label: `${first.ms} ms: half from ~${first.from}`,
        }
      : null,
    words:
      `Measured with an instant calculator: ${trend(points)} (medians of the runs’ steps). Modelled from their time split — ` +
      `sampling ${samplingMsPerCall(t).toFixed(1)} ms a call, the update ${(1000 * t.updateMsPerChar).toFixed(0)} µs a character it runs — ` +
      `the batch waiting the calculator’s latency at each call: ${said.map((x) => x.words).join('; ')}. ` +
      'Sampling and the update both grow with the episode’s characters, so the wait at each call, not the length, makes sampling the larger part; instant, the share moves only with the flat groups the update skips.',
  };
}

/** Views by file: the model's fit (EM over 101 values, twice) runs once a file, not once a render. */
const cache = new WeakMap<ReferenceRuns, ScaleView | null>();

/** The scale charts from the held-fixed agent's reference runs; null where the file does not hold what the model reads. */
export function scaleView(ref: ReferenceRuns): ScaleView | null {
  if (!cache.has(ref)) {
    const r = scaleReport(ref.runs, { latencies: SETTINGS.toolLatencyMs.choices, maxCalls: SCALE_CALLS });
    cache.set(ref, r && viewOf(r));
  }
  return cache.get(ref)!;
}

function viewOf(r: ScaleReport): ScaleView {
  const { q, lo, hi } = r.perCallSuccess;
  return {
    q: r.perCallSuccess,
    seeds: r.lengths[0]!.seeds.length,
    modelWords:
      `Lines: a model, not a measurement — each added call right with probability q = ${q.toFixed(3)} ` +
      `(95% over the seeds: ${lo.toFixed(3)}–${hi.toFixed(3)}${hi === 1 ? ', a probability’s top' : ''}), fitted to the sampled reward at one to three calls, ` +
      `on sums as unequally hard as the runs’ groups were at ${callsAt(r.model.anchorCalls)} (${pct(meanOf(r.lengths.at(-1)!.allPass))} of them all paid).`,
    checkWords: checkWords(r),
    holds: r.heldOutCheck.holds,
    charts: [sparser(r), credit(r), sampling(r)],
  };
}
