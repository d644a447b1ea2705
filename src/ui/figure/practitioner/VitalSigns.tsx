/**
 * What a practitioner reads: the updates per batch (μ) and the clip it makes real, then the
 * run's vital signs — each a small chart of the live run under the name TRL's GRPOTrainer logs
 * it, with its first → last readout and what to watch for. At μ = 1 the clip's chart is a
 * sentence: the ratio is exactly 1 there, and a flat zero line would pretend to a measurement.
 */
import { format } from 'd3';
import { memo, useId } from 'react';
import { GRPO } from '../../../config';
import type { RunSettings } from '../../../pipeline/settings';
import type { StepMetrics } from '../../../rl/metrics';
import { lossAxis, PERCENT, type YAxis } from '../chart/axes';
import { LineChart } from '../chart/LineChart';
import { SettingSelect } from '../SettingControl';
import { sameGrpoSide, toneOf, type RunView, type Series, type WorkerStatus } from '../types';
import { CLIP_SERIES, formatVital, metricPoints, metricsOf, VITALS, vitalReadout, type Vital } from './vital-signs';

interface Props {
  status: WorkerStatus;
  run: RunView | null;
  settings: RunSettings;
  onSettings: (s: RunSettings) => void;
  frame: number;
  steps: number;
}

const SMALL = 110;
const SMALL_PERCENT: YAxis = { ...PERCENT, ticks: [0, 0.5, 1] };
const fixedAxes = new Map<Vital, YAxis>();

function axisOf(v: Vital, values: readonly number[]): YAxis {
  if (v.kind === 'fraction') return SMALL_PERCENT;
  if (v.max === undefined) return lossAxis(values);
  if (!fixedAxes.has(v)) {
    const format = formatVital(v);
    fixedAxes.set(v, { max: v.max, format, ticks: [0, v.max / 2, v.max] });
  }
  return fixedAxes.get(v)!;
}

/** Percentages from 0 to a tidy top over the data (at least 5%): the clip rarely passes a few percent. */
const CLIP_FORMAT = format('.0%');
function clipAxis(values: readonly number[]): YAxis {
  const top = lossAxis([0.05, ...values]);
  return { ...top, format: CLIP_FORMAT };
}

const seriesOf = (run: RunView, metrics: readonly StepMetrics[], name: keyof StepMetrics, label: string): Series => ({
  id: `run-${run.runId}-${name}`,
  label,
  tone: toneOf(run.config.faulty),
  dim: false,
  dash: 'solid',
  points: metricPoints(metrics, name),
});

export const VitalSigns = memo(function VitalSigns({ status, run, settings, onSettings, frame, steps }: Props) {
  const metrics = run ? metricsOf(run.steps) : [];
  const mu = run?.config.updatesPerBatch ?? settings.updatesPerBatch;
  return (
    <div className="vital-signs">
      <p className="vital-signs-note">
        The numbers TRL’s <code>GRPOTrainer</code> logs at every step, live for this run, each under its name there; the
        groups that teach nothing under prime-rl’s names too.
      </p>
      <SettingSelect
        setting="updatesPerBatch"
        value={settings.updatesPerBatch}
        disabled={status === 'dead'}
        onChange={(updatesPerBatch) => onSettings({ ...settings, updatesPerBatch })}
      />
      {mu === 1 ? (
        <p className="clip-words" data-testid="clip-words">
          <code>clip_ratio</code>: at one update per batch (μ = 1, the plate’s) the policy being updated is the one that
          sampled the batch, so the ratio is exactly 1 and nothing can be clipped — TRL logs 0 here by construction.
          Choose μ = 2 or 4 to reuse each batch: from its second update the ratio moves, and the clip at 1 ±{' '}
          {GRPO.clipEps} acts.
        </p>
      ) : (
        <ClipChart run={run} metrics={metrics} frame={frame} steps={steps} />
      )}
      {metrics.length === 0 ? (
        // Nothing true to draw before a step has sampled: eight empty frames would look like a measurement.
        <p className="vitals-wait" data-testid="vitals-wait">
          The vital signs are the run’s own: their {VITALS.length} charts draw each GRPO step as it comes. Press Run or
          Step.
        </p>
      ) : (
        <div className="vitals">
          {VITALS.map((v) => (
            <VitalChart key={v.name} vital={v} run={run} metrics={metrics} frame={frame} steps={steps} />
          ))}
        </div>
      )}
    </div>
  );
}, sameGrpoSide);

interface ChartProps {
  run: RunView | null;
  metrics: readonly StepMetrics[];
  frame: number;
  steps: number;
}

/** The clip's three fractions per step: the region as the live line, its two sides under it. */
function ClipChart({ run, metrics, frame, steps }: ChartProps) {
  const [low, high, region] = CLIP_SERIES.map((c) => (run ? seriesOf(run, metrics, c.name, c.label) : null));
  const sides = [low, high];
  const dims = sides.flatMap((s, i) =>
    s ? [{ ...s, dim: true, dash: i === 0 ? ('dashed' as const) : ('dotted' as const) }] : [],
  );
  const last = metrics.at(-1);
  const captionId = useId();
  return (
    <div className="vital clip" data-testid="clip-chart">
      <p className="vital-name">
        Clipped characters <code>clip_ratio/region_mean</code> (low: dashed, high: dotted)
      </p>
      <LineChart
        name="Clipped characters"
        frame={frame}
        steps={steps}
        series={[...dims, ...(region ? [region] : [])]}
        live={region}
        markers={[]}
        height={SMALL}
        y={clipAxis(metrics.map((m) => m['clip_ratio/region_mean']))}
        captionId={captionId}
      />
      <p className="vital-readout">
        {last
          ? `step ${last.step}: ${CLIP_SERIES.map((c) => `${c.name.replace('clip_ratio/', '')} ${(100 * last[c.name]).toFixed(1)}%`).join(' · ')}`
          : 'appears once the first step is done'}
      </p>
      <p className="vital-watch chart-caption" id={captionId}>
        Above a few percent, the later updates have moved the policy far from the one that sampled: the clipped
        characters get no gradient at all.
      </p>
    </div>
  );
}

function VitalChart({ vital: v, run, metrics, frame, steps }: ChartProps & { vital: Vital }) {
  const live = run ? seriesOf(run, metrics, v.name, v.label) : null;
  const captionId = useId();
  return (
    <div className="vital" data-testid={`vital-${v.name}`}>
      <p className="vital-name">
        {v.label} <code>{v.name}</code>
        {v.primeRl && (
          <>
            {' '}
            · prime-rl logs {v.primeRl.oneMinus ? '1 − it' : 'it'} as <code>{v.primeRl.name}</code>
          </>
        )}
      </p>
      <LineChart
        name={v.name}
        frame={frame}
        steps={steps}
        series={live ? [live] : []}
        live={live}
        markers={[]}
        height={SMALL}
        y={axisOf(
          v,
          metrics.map((m) => m[v.name]),
        )}
        captionId={captionId}
      />
      <p className="vital-readout">{vitalReadout(v, metrics)}</p>
      <p className="vital-watch chart-caption" id={captionId}>
        {v.watch}
      </p>
    </div>
  );
}
