/**
 * The closing claims at the plate's scale, drawn: one chart a claim from 1 to 300 calls on a log
 * axis — the reference runs' figures at one to three calls (grey: the seeds' mean and their
 * spread, as the claims' charts draw them) and the scale model's line (dashed: a model, its q named
 * in the key), the crossing or peak its words name marked — with whether the model holds at three
 * calls, in numbers. Everything comes from the held-fixed agent's reference file (scale-view.ts).
 * A chunk of its own on the page, loaded with that file (ScaleCharts.tsx).
 */
import { line, scaleLinear, type ScaleLinear } from 'd3';
import { useId } from 'react';
import { Axis, GridAxis } from '../chart/Axis';
import type { YAxis } from '../chart/axes';
import { M } from '../chart/frame';
import { useWidth } from '../chart/useWidth';
import { pct } from '../../format';
import type { ReferenceRuns } from '../reference';
import { SCALE_CALLS, scaleView, type ScaleChartView } from './scale-view';

/** The log axis's ticks, in calls. */
const TICKS = [1, 3, 10, 30, 100, 300].filter((c) => c <= SCALE_CALLS);
const HEIGHT = 160;
/** Tops a percentage axis may take, the smallest over the chart's figures chosen. */
const TOPS = [0.1, 0.2, 0.5, 1];

function yAxisOf(c: ScaleChartView): YAxis {
  const top = Math.max(
    ...c.series.flatMap((s) => [...s.model, ...s.measured.map((p) => p.hi)]),
    ...c.modelOnly.flatMap((l) => l.model),
  );
  const max = TOPS.find((t) => top * 1.15 <= t) ?? 1;
  return { max, format: pct, ticks: [0, max / 2, max] };
}

/** The key, the model's check and the three charts; where the file lacks what the model reads, that. */
export function ScaleChartsDrawn({ runs }: { runs: ReferenceRuns }) {
  const head = useId();
  const view = scaleView(runs);
  return (
    <div className="scale-charts" role="group" aria-labelledby={head} data-testid="scale-charts">
      <p className="claim-key" id={head}>
        At the plate’s scale, 1 to {SCALE_CALLS} calls (log scale): grey, what our reference runs measured at one to
        three calls{view ? ` (${view.seeds} seeds: the dot their mean, the bar their spread)` : ''}; dashed, where a
        model carries it.
      </p>
      {view ? (
        <>
          <p className="claim-key" data-testid="scale-model">
            {view.modelWords}
          </p>
          <p className="scale-check" data-testid="scale-check" data-holds={view.holds}>
            {view.checkWords}
          </p>
          <div className="claim-charts">
            {view.charts.map((c) => (
              <ScaleChart key={c.key} chart={c} q={view.q.q} />
            ))}
          </div>
        </>
      ) : (
        <p className="claim-key" data-testid="scale-missing">
          This reference file does not hold what the scale model reads (each group’s paid episodes, the time split):
          re-make it with npm run reference-runs -- --agent three-calls.
        </p>
      )}
    </div>
  );
}

/** Labels at the lines' right ends, pushed apart where they would overlap. */
function endLabels(ends: { label: string; y: number }[]): { label: string; y: number }[] {
  const sorted = [...ends].sort((a, b) => a.y - b.y);
  sorted.forEach((e, i) => {
    if (i > 0) e.y = Math.max(e.y, sorted[i - 1]!.y + 11);
  });
  return sorted;
}

type Scale = ScaleLinear<number, number>;

/** The model's lines: the measured figures' first, then those no measurement stands beside (dotted). */
const linesOf = (c: ScaleChartView) => [
  ...c.series.map((s) => ({ label: s.label, model: s.model, other: false })),
  ...c.modelOnly.map((l) => ({ ...l, other: true })),
];

/** The chart in words: what was measured, and the model's line at a few call counts. */
function chartLabel(c: ScaleChartView, q: number): string {
  const said = (k: number) =>
    linesOf(c)
      .map((l) => `${l.label} ${pct(l.model[k - 1]!)}`)
      .join(', ');
  const points = (s: ScaleChartView['series'][number]) =>
    s.measured.map((p) => `${p.calls} call${p.calls > 1 ? 's' : ''} ${pct(p.mean)} (seeds ${pct(p.lo)}–${pct(p.hi)})`);
  return (
    `${c.name} against the calls, 1 to ${SCALE_CALLS}, log scale. ` +
    `Measured: ${c.series.map((s) => `${s.label} ${points(s).join(', ')}`).join('; ')}. ` +
    `The model (q = ${q.toFixed(3)}): at 10 calls ${said(10)}; at 100, ${said(100)}; at ${SCALE_CALLS}, ${said(SCALE_CALLS)}.`
  );
}

function ScaleChart({ chart: c, q }: { chart: ScaleChartView; q: number }) {
  const captionId = useId();
  const [wrap, width] = useWidth<HTMLDivElement>(240);
  const yAxis = yAxisOf(c);
  const x = scaleLinear([0, Math.log10(SCALE_CALLS)], [M.left, Math.max(M.left + 60, width - M.right)]);
  const y = scaleLinear([0, yAxis.max], [HEIGHT - M.bottom, M.top]);
  return (
    <div className="vital claim-chart" data-testid={`scale-chart-${c.key}`}>
      <p className="vital-name">
        {c.claim}: {c.name.replace(/^./, (s) => s.toLowerCase())}
      </p>
      <div ref={wrap} className="chart trend-chart">
        <svg
          role="img"
          aria-label={chartLabel(c, q)}
          aria-describedby={captionId}
          width={width}
          height={HEIGHT}
          viewBox={`0 0 ${width} ${HEIGHT}`}
        >
          <GridAxis scale={y} ticks={yAxis.ticks} format={yAxis.format} left={M.left} right={x.range()[1]!} />
          <Axis
            orient="bottom"
            className="axis axis-x"
            transform={`translate(0,${HEIGHT - M.bottom})`}
            scale={x}
            ticks={TICKS.map(Math.log10)}
            format={(v) => `${Math.round(10 ** v)}`}
          />
          <ScaleMarks chart={c} x={x} y={y} top={yAxis.max} />
        </svg>
      </div>
      <p className="vital-watch chart-caption" id={captionId}>
        {c.words}
      </p>
    </div>
  );
}

/** The model's lines and their names, the measured bars and dots over them, the point the words name. */
function ScaleMarks({ chart: c, x, y, top }: { chart: ScaleChartView; x: Scale; y: Scale; top: number }) {
  const at = (calls: number) => x(Math.log10(calls));
  const clamp = (v: number) => y(Math.min(v, top));
  const path = line<number>(
    (_, i) => at(i + 1),
    (v) => clamp(v),
  );
  const lines = linesOf(c);
  const labels = endLabels(lines.map((l) => ({ label: l.label, y: clamp(l.model.at(-1)!) + 3 })));
  return (
    <>
      {lines.map((l) => (
        <g key={l.label} className={`cap-line scale-model${l.other ? ' scale-other' : ''}`}>
          <path d={path(l.model) ?? ''} />
        </g>
      ))}
      <g className="scale-labels">
        {labels.map((l) => (
          <text key={l.label} x={x.range()[1]! + 4} y={l.y}>
            {l.label}
          </text>
        ))}
      </g>
      {c.series.map((s) => (
        <g key={s.label} className="trend-reference">
          {s.measured.map((p) => (
            <line
              key={p.calls}
              className="spread"
              x1={at(p.calls)}
              x2={at(p.calls)}
              y1={clamp(p.lo)}
              y2={clamp(p.hi)}
            />
          ))}
          {s.measured.map((p) => (
            <circle key={p.calls} cx={at(p.calls)} cy={clamp(p.mean)} r={3} />
          ))}
        </g>
      ))}
      {c.mark && (
        <g className="scale-mark">
          <circle cx={at(c.mark.calls)} cy={clamp(c.mark.value)} r={3.5} />
          {/* Near the left end, from the mark rightwards: a centred label would cross the y axis. */}
          <text
            x={at(c.mark.calls)}
            y={clamp(c.mark.value) - 8}
            textAnchor={at(c.mark.calls) < x.range()[0]! + 30 ? 'start' : 'middle'}
          >
            {c.mark.label}
          </text>
        </g>
      )}
    </>
  );
}
