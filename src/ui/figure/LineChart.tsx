/**
 * One of the figure's charts: a 0–steps frame by 0–100% (or 0–max for a loss), the reference
 * band, earlier runs dimmed, the live run on top, the plate's numbers as small marks. d3
 * computes scales and path strings in render; JSX draws them; the axes are drawn through refs
 * in an effect. Hover, or focus and use the arrow keys, to read a point.
 */
import * as d3 from 'd3';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { BandPoint, Marker, Series } from './types';
import { pct } from '../format';
import { useWidth } from './useWidth';

interface Props {
  name: string;
  /** The x axis runs 0..frame; the label counts steps out of the run's `steps`. */
  frame: number;
  steps: number;
  /** Drawn in order: earlier (dim) runs first. */
  series: readonly Series[];
  live: Series | null;
  /**
   * A second curve of the live run on the same scale, drawn thin over it and read with it (true
   * success beside the mean reward); its label names it in the chart's description.
   */
  companion?: Series | null;
  band?: readonly BandPoint[];
  markers: readonly Marker[];
  /** The y axis: 0–100% unless given (a loss: 0 to a max from the data, plain numbers). */
  y?: YAxis;
  /** Under the x axis, e.g. "fine-tuning step". */
  xTitle?: string;
  /** Pixels; the plate's own charts are taller than the diagnostics. */
  height?: number;
}

export interface YAxis {
  max: number;
  format: (v: number) => string;
  ticks: number[];
}

export const PERCENT: YAxis = { max: 1, format: pct, ticks: [0, 0.25, 0.5, 0.75, 1] };

/** A 0–max axis for a loss: max from the data, rounded up to a tidy number. */
const LOSS_FORMAT = d3.format('.2~f');
/** One axis object per top: the chart redraws its axes only when the axis changes. */
const lossAxes = new Map<number, YAxis>();

export function lossAxis(values: readonly number[]): YAxis {
  const top = d3.scaleLinear().domain([0, Math.max(1e-6, ...values.filter(Number.isFinite))]).nice(4);
  const max = top.domain()[1]!;
  if (!lossAxes.has(max)) lossAxes.set(max, { max, format: LOSS_FORMAT, ticks: top.ticks(4) });
  return lossAxes.get(max)!;
}

const DEFAULT_HEIGHT = 200;
/** A curve with more points than this (a loss per step) is drawn as a line without dots. */
const MAX_DOTS = 60;
const M = { top: 16, right: 58, bottom: 28, left: 40 };
type Point = readonly [number, number];

export function chartLabel(name: string, steps: number, live: Series | null, format: (v: number) => string = pct): string {
  const last = live?.points.at(-1);
  return last ? `${name}, step ${last[0]} of ${steps}: ${format(last[1])}` : `${name}, no data yet`;
}

/** The companion's latest point, as the chart's description: "true success, step 3: 64%". */
function companionLabel(companion: Series, format: (v: number) => string = pct): string {
  const last = companion.points.at(-1);
  return last ? `${companion.label}, step ${last[0]}: ${format(last[1])}` : `${companion.label}, no data yet`;
}

export function LineChart({ name, frame, steps, series, live, companion, band, markers, y: yAxis = PERCENT, xTitle = 'GRPO step', height = DEFAULT_HEIGHT }: Props) {
  const [wrap, width] = useWidth<HTMLDivElement>(480);
  const xAxisRef = useRef<SVGGElement>(null);
  const yAxisRef = useRef<SVGGElement>(null);
  const [probe, setProbe] = useState<number | null>(null);
  const described = useId();

  const x = d3.scaleLinear([0, frame], [M.left, Math.max(M.left + 40, width - M.right)]);
  const y = d3.scaleLinear([0, yAxis.max], [height - M.bottom, M.top]);
  const fmt = yAxis.format;
  const line = d3.line<Point>((d) => x(d[0]), (d) => y(d[1]));
  const area = d3.area<BandPoint>().x((d) => x(d.step)).y0((d) => y(d.lo)).y1((d) => y(d.hi));

  useEffect(() => {
    const xs = d3.scaleLinear([0, frame], [M.left, Math.max(M.left + 40, width - M.right)]);
    const ys = d3.scaleLinear([0, yAxis.max], [height - M.bottom, M.top]);
    const ticks = d3.range(0, frame + 1, frame > 100 ? 50 : frame > 20 ? 10 : 5);
    d3.select(xAxisRef.current!).call(d3.axisBottom(xs).tickValues(ticks).tickSizeOuter(0));
    d3.select(yAxisRef.current!)
      .call(d3.axisLeft(ys).tickValues(yAxis.ticks).tickFormat((v) => yAxis.format(v as number)).tickSize(-(xs.range()[1] - M.left)))
      .call((g) => g.select('.domain').remove());
  }, [width, frame, yAxis, height]);

  const points = live?.points ?? [];
  const probed = probe === null ? undefined : points[Math.min(probe, points.length - 1)];

  const onPointerMove = (e: PointerEvent<SVGRectElement>) => {
    if (!points.length) return;
    const px = e.clientX - e.currentTarget.ownerSVGElement!.getBoundingClientRect().left;
    const step = x.invert(px);
    setProbe(d3.leastIndex(points, (p) => Math.abs(p[0] - step)) ?? null);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (!points.length) return;
    const last = points.length - 1;
    const at = probe ?? last;
    const next = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: last }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    setProbe(Math.max(0, Math.min(last, next)));
  };

  const paired = probed && companion?.points.find((p) => p[0] === probed[0]);
  const probeText = probed ? `${name}: step ${probed[0]}, ${fmt(probed[1])}${paired ? `; ${companion!.label} ${fmt(paired[1])}` : ''}` : '';
  return (
    <div
      ref={wrap}
      className="chart"
      tabIndex={0}
      role="group"
      aria-label={`${name} chart; use the arrow keys to read the points`}
      onKeyDown={onKeyDown}
      onFocus={() => setProbe((p) => p ?? (points.length ? points.length - 1 : null))}
      onBlur={() => setProbe(null)}
    >
      <svg role="img" aria-label={chartLabel(name, steps, live, fmt)} aria-describedby={companion ? described : undefined} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
        <g ref={yAxisRef} className="axis axis-y" transform={`translate(${M.left},0)`} />
        <g ref={xAxisRef} className="axis axis-x" transform={`translate(0,${height - M.bottom})`} />
        <text className="axis-title" x={x(frame)} y={height - 2} textAnchor="end">
          {xTitle}
        </text>
        {band && band.length > 1 && <path className="band" d={area(band) ?? undefined} />}
        {series.map((s) => (
          <path key={s.id} className={`series tone-${s.tone} dash-${s.dash}${s.dim ? ' dim' : ''}`} d={line(s.points) ?? undefined} />
        ))}
        {live && points.length <= MAX_DOTS && (
          <g className={`points tone-${live.tone}`}>
            {points.map(([step, v]) => (
              <circle key={step} cx={x(step)} cy={y(v)} r={2.4} />
            ))}
          </g>
        )}
        {companion && (
          <g className="companion">
            <path className="series companion-line" d={line(companion.points) ?? undefined} />
            {companion.points.length <= MAX_DOTS && companion.points.map(([step, v]) => <rect key={step} x={x(step) - 2.5} y={y(v) - 2.5} width={5} height={5} />)}
          </g>
        )}
        {markers.map((m) => (
          <g key={`${m.step}-${m.value}`} className={`marker tone-${m.tone}`} transform={`translate(${x(m.step)},${y(m.value)})`}>
            <path d="M0,-4L4,0L0,4L-4,0Z" />
            <text x={m.step === frame ? 7 : 6} y={m.step === frame ? 3.5 : 13} textAnchor="start">
              {m.label}
            </text>
          </g>
        ))}
        {probed && (
          <g className="probe" transform={`translate(${x(probed[0])},0)`}>
            <line y1={M.top} y2={height - M.bottom} />
            <circle cy={y(probed[1])} r={4.5} />
            <text y={M.top - 4} textAnchor={x(probed[0]) > (M.left + width - M.right) / 2 ? 'end' : 'start'}>
              step {probed[0]} · {fmt(probed[1])}
              {paired ? ` · ${companion!.label} ${fmt(paired[1])}` : ''}
            </text>
          </g>
        )}
        <rect
          className="hit"
          x={M.left}
          y={M.top}
          width={Math.max(0, x.range()[1] - M.left)}
          height={height - M.top - M.bottom}
          onPointerMove={onPointerMove}
          onPointerLeave={() => setProbe(null)}
        />
      </svg>
      <p className="visually-hidden" aria-live="polite">
        {probeText}
      </p>
      {companion && (
        <p className="visually-hidden" id={described}>
          {companionLabel(companion, fmt)}
        </p>
      )}
    </div>
  );
}
