/**
 * One of the figure's charts: a 0–steps frame by 0–100% (or 0–max for a loss), the reference
 * band, earlier runs dimmed, the live run on top, the plate's numbers as small marks. d3
 * computes scales and path strings in render; JSX draws them, the axes too (chart/Axis.tsx).
 * Hover, or focus and use the arrow keys, to read a point.
 */
import { useId } from 'react';
import type { BandPoint, Marker, Series } from '../types';
import { pct } from '../../format';
import { Axes, PERCENT, type YAxis } from './axes';
import { xScale, yScale } from './frame';
import { Bands, Companion, Curves, LiveDots, Markers } from './layers';
import { HitArea, Probe, ProbeReadout, useProbe } from './probe';
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
  /** More bands than one, each with its kind (a class: band-<kind>), drawn under the curves in order. */
  bands?: readonly { kind: string; band: readonly BandPoint[] }[];
  markers: readonly Marker[];
  /** The y axis: 0–100% unless given (a loss: 0 to a max from the data, plain numbers). */
  y?: YAxis;
  /** Under the x axis, e.g. "fine-tuning step". */
  xTitle?: string;
  /** Pixels; the plate's own charts are taller than the diagnostics. */
  height?: number;
  /**
   * The id of the sentence beside the chart that says what it counts and what to look for (its
   * caption, class `chart-caption`): a chart without one is a line a reader must guess at.
   */
  captionId: string;
}

const DEFAULT_HEIGHT = 200;

/**
 * The chart's accessible name: the live run's latest point, or, before one, what the chart does
 * draw (a label that said "no data yet" over a drawn band would be false).
 * @internal A test seam: exported for its test.
 */
export function chartLabel(
  name: string,
  steps: number,
  live: Series | null,
  format: (v: number) => string = pct,
  drawn: readonly string[] = [],
): string {
  const last = live?.points.at(-1);
  if (last) return `${name}, step ${last[0]} of ${steps}: ${format(last[1])}`;
  return `${name}, no run on it yet${drawn.length > 0 ? `; drawn: ${drawn.join(', ')}` : ''}`;
}

/** What a chart draws besides the live run, in words, for its name before a run. */
function drawnWords(p: Pick<Props, 'band' | 'bands' | 'series' | 'markers' | 'live'>): string[] {
  const bands = [p.band ?? [], ...(p.bands ?? []).map((b) => b.band)].some((b) => b.length > 0);
  return [
    ...(bands ? ['the reference runs’ band (precomputed)'] : []),
    ...(p.series.some((s) => s !== p.live) ? ['earlier runs, dimmed'] : []),
    ...(p.markers.length > 0 ? ['the plate’s numbers'] : []),
  ];
}

/** The companion's latest point, as the chart's description: "true success, step 3: 64%". */
function companionLabel(companion: Series, format: (v: number) => string = pct): string {
  const last = companion.points.at(-1);
  return last ? `${companion.label}, step ${last[0]}: ${format(last[1])}` : `${companion.label}, no data yet`;
}

export function LineChart({
  name,
  frame,
  steps,
  series,
  live,
  companion,
  band,
  bands,
  markers,
  y: yAxis = PERCENT,
  xTitle = 'GRPO step',
  height = DEFAULT_HEIGHT,
  captionId,
}: Props) {
  const [wrap, width] = useWidth<HTMLDivElement>(480);
  const described = useId();
  const x = xScale(frame, width);
  const y = yScale(yAxis.max, height);
  const fmt = yAxis.format;
  const probe = useProbe(live?.points ?? [], companion?.points, x);
  const reading = { probed: probe.probed, paired: probe.paired, companion: companion?.label, format: fmt };
  return (
    <div
      ref={wrap}
      className="chart"
      tabIndex={0}
      role="group"
      aria-label={`${name} chart; use the arrow keys to read the points`}
      onKeyDown={probe.onKeyDown}
      onFocus={probe.onFocus}
      onBlur={probe.clear}
    >
      <svg
        role="img"
        aria-label={chartLabel(name, steps, live, fmt, drawnWords({ band, bands, series, markers, live }))}
        aria-describedby={companion ? `${captionId} ${described}` : captionId}
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
      >
        <Axes width={width} height={height} frame={frame} yAxis={yAxis} title={xTitle} />
        <Bands bands={[{ kind: '', band }, ...(bands ?? [])]} x={x} y={y} />
        <Curves series={series} x={x} y={y} />
        {live && <LiveDots live={live} x={x} y={y} />}
        {companion && <Companion companion={companion} x={x} y={y} />}
        <Markers markers={markers} frame={frame} x={x} y={y} />
        {reading.probed && <Probe {...reading} probed={reading.probed} x={x} y={y} width={width} height={height} />}
        <HitArea x={x} height={height} onPointerMove={probe.onPointerMove} onPointerLeave={probe.clear} />
      </svg>
      <ProbeReadout name={name} {...reading} />
      {companion && (
        <p className="visually-hidden" id={described}>
          {companionLabel(companion, fmt)}
        </p>
      )}
    </div>
  );
}
