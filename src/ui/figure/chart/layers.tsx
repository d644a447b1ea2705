/**
 * A line chart's layers, drawn in this order: the reference band, the runs' curves (earlier
 * ones dimmed), the live run's dots, the companion curve, the plate's marks. d3 computes the
 * path strings from the scales; JSX draws them.
 */
import * as d3 from 'd3';
import type { BandPoint, Marker, Series } from '../types';
import type { Point, Scale } from './frame';

/** A curve with more points than this (a loss per step) is drawn as a line without dots. */
const MAX_DOTS = 60;

interface Scales {
  x: Scale;
  y: Scale;
}

const lineOf = ({ x, y }: Scales) =>
  d3.line<Point>(
    (d) => x(d[0]),
    (d) => y(d[1]),
  );

/** The reference runs' spread; `kind` tells one band from another where a chart draws two. */
function Band({ band, kind, x, y }: Scales & { band?: readonly BandPoint[]; kind?: string }) {
  if (!band || band.length <= 1) return null;
  const area = d3
    .area<BandPoint>()
    .x((d) => x(d.step))
    .y0((d) => y(d.lo))
    .y1((d) => y(d.hi));
  return <path className={kind ? `band band-${kind}` : 'band'} d={area(band) ?? undefined} />;
}

/** Bands in order, each with its kind ('' for a chart's one reference band). */
export function Bands({
  bands,
  ...scales
}: Scales & { bands: readonly { kind: string; band?: readonly BandPoint[] }[] }) {
  return bands.map((b) => <Band key={b.kind} {...scales} band={b.band} kind={b.kind || undefined} />);
}

export function Curves({ series, ...scales }: Scales & { series: readonly Series[] }) {
  const line = lineOf(scales);
  return series.map((s) => (
    <path
      key={s.id}
      className={`series tone-${s.tone} dash-${s.dash}${s.dim ? ' dim' : ''}`}
      d={line(s.points) ?? undefined}
    />
  ));
}

export function LiveDots({ live, x, y }: Scales & { live: Series }) {
  if (live.points.length > MAX_DOTS) return null;
  return (
    <g className={`points tone-${live.tone}`}>
      {live.points.map(([step, v]) => (
        <circle key={step} cx={x(step)} cy={y(v)} r={2.4} />
      ))}
    </g>
  );
}

/** A second curve of the live run, thin, its points as small squares. */
export function Companion({ companion, ...scales }: Scales & { companion: Series }) {
  const { x, y } = scales;
  return (
    <g className="companion">
      <path className="series companion-line" d={lineOf(scales)(companion.points) ?? undefined} />
      {companion.points.length <= MAX_DOTS &&
        companion.points.map(([step, v]) => <rect key={step} x={x(step) - 2.5} y={y(v) - 2.5} width={5} height={5} />)}
    </g>
  );
}

/** The plate's numbers; a mark at the frame's end has its label beside it, others under it. */
export function Markers({ markers, frame, x, y }: Scales & { markers: readonly Marker[]; frame: number }) {
  return markers.map((m) => (
    <g
      key={`${m.step}-${m.value}`}
      className={`marker tone-${m.tone}`}
      transform={`translate(${x(m.step)},${y(m.value)})`}
    >
      <path d="M0,-4L4,0L0,4L-4,0Z" />
      <text x={m.step === frame ? 7 : 6} y={m.step === frame ? 3.5 : 13} textAnchor="start">
        {m.label}
      </text>
    </g>
  ));
}
