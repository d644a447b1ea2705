/**
 * A line chart's probe: the live run's point read by hovering (the hit area) or by the arrow
 * keys, drawn as a rule and a dot with its numbers, and said in words to a screen reader.
 */
import * as d3 from 'd3';
import { useState, type KeyboardEvent, type PointerEvent } from 'react';
import { M, type Point, type Scale } from './frame';

/** The probed point of `points` (and the companion's point at its step), with what moves it. */
export function useProbe(points: readonly Point[], companion: readonly Point[] | undefined, x: Scale) {
  const [probe, setProbe] = useState<number | null>(null);
  const probed = probe === null ? undefined : points[Math.min(probe, points.length - 1)];
  const paired = probed && companion?.find((p) => p[0] === probed[0]);

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
  const onFocus = () => setProbe((p) => p ?? (points.length ? points.length - 1 : null));
  const clear = () => setProbe(null);
  return { probed, paired, onPointerMove, onKeyDown, onFocus, clear };
}

interface Reading {
  probed: Point;
  paired: Point | undefined;
  /** The companion's label, said beside its paired value. */
  companion: string | undefined;
  format: (v: number) => string;
}

interface ProbeProps extends Reading {
  x: Scale;
  y: Scale;
  width: number;
  height: number;
}

export function Probe({ probed, paired, companion, format: fmt, x, y, width, height }: ProbeProps) {
  return (
    <g className="probe" transform={`translate(${x(probed[0])},0)`}>
      <line y1={M.top} y2={height - M.bottom} />
      <circle cy={y(probed[1])} r={4.5} />
      <text y={M.top - 4} textAnchor={x(probed[0]) > (M.left + width - M.right) / 2 ? 'end' : 'start'}>
        step {probed[0]} · {fmt(probed[1])}
        {paired ? ` · ${companion} ${fmt(paired[1])}` : ''}
      </text>
    </g>
  );
}

/** The plot's area, which takes the pointer. */
interface HitAreaProps {
  x: Scale;
  height: number;
  onPointerMove: (e: PointerEvent<SVGRectElement>) => void;
  onPointerLeave: () => void;
}

export function HitArea({ x, height, onPointerMove, onPointerLeave }: HitAreaProps) {
  return (
    <rect
      className="hit"
      x={M.left}
      y={M.top}
      width={Math.max(0, x.range()[1] - M.left)}
      height={height - M.top - M.bottom}
      onPointerMove={onPointerMove}
      onPointerLeave={onPointerLeave}
    />
  );
}

/** The probed point in words, for a screen reader (empty while nothing is probed). */
type ReadoutProps = Omit<Reading, 'probed'> & { name: string; probed: Point | undefined };

export function ProbeReadout({ name, probed, paired, companion, format: fmt }: ReadoutProps) {
  return (
    <p className="visually-hidden" aria-live="polite">
      {probed ? `${name}: step ${probed[0]}, ${fmt(probed[1])}${paired ? `; ${companion} ${fmt(paired[1])}` : ''}` : ''}
    </p>
  );
}
