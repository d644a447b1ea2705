/**
 * An axis drawn by React the way d3-axis draws one: its attributes, classes, tick offsets and text
 * placement, so the stylesheet and whoever reads the ticks see what they saw. Drawn in render, the
 * axes come with the marks in one pass, on the server too, and the page no longer ships
 * d3-selection; on a phone-class CPU, d3 drawing every axis in effects after the first render was
 * a task of ~110 ms of its own (`npm run bench -- phone`).
 */
import type { ScaleLinear } from 'd3';

/** d3-axis's half-pixel offset, for crisp 1 px lines (d3 drops it on high-density screens; kept here so the server's markup is the browser's). */
const OFFSET = 0.5;
/** d3-axis's defaults. */
const TICK_SIZE = 6;
const TICK_PADDING = 3;

interface Props {
  orient: 'bottom' | 'left';
  /** Where a value sits along the axis (px); its range is the domain line's extent. */
  scale: ScaleLinear<number, number>;
  ticks: readonly number[];
  /** A tick's label; d3-axis's default, the scale's own tick format, unless given. */
  format?: (v: number) => string;
  /** A tick's length; negative draws it across the chart, as a grid line (d3's tickSize). */
  tickSize?: number;
  /** The domain line, drawn unless a grid axis leaves it off (as `.select('.domain').remove()` did after d3). */
  domain?: boolean;
  className: string;
  transform: string;
}

export function Axis({
  orient,
  scale,
  ticks,
  format = scale.tickFormat(),
  tickSize = TICK_SIZE,
  domain = true,
  className,
  transform,
}: Props) {
  const bottom = orient === 'bottom';
  const k = bottom ? 1 : -1;
  const spacing = Math.max(tickSize, 0) + TICK_PADDING;
  const [r0, r1] = [scale.range()[0]! + OFFSET, scale.range().at(-1)! + OFFSET];
  return (
    <g
      className={className}
      transform={transform}
      fill="none"
      fontSize={10}
      fontFamily="sans-serif"
      textAnchor={bottom ? 'middle' : 'end'}
    >
      {domain && (
        <path
          className="domain"
          stroke="currentColor"
          d={bottom ? `M${r0},${OFFSET}H${r1}` : `M${OFFSET},${r0}V${r1}`}
        />
      )}
      {ticks.map((v) => {
        const at = scale(v) + OFFSET;
        return (
          <g key={v} className="tick" opacity={1} transform={bottom ? `translate(${at},0)` : `translate(0,${at})`}>
            <line stroke="currentColor" {...(bottom ? { y2: k * tickSize } : { x2: k * tickSize })} />
            <text
              fill="currentColor"
              {...(bottom ? { y: k * spacing, dy: '0.71em' } : { x: k * spacing, dy: '0.32em' })}
            >
              {format(v)}
            </text>
          </g>
        );
      })}
    </g>
  );
}

/**
 * A left axis drawn as a grid, as the charts draw their y axis: its ticks run across the plot from
 * `left` to `right` and it has no domain line (d3's `tickSize(-width)` with the domain removed).
 */
export function GridAxis({
  className = 'axis axis-y',
  left,
  right,
  ...p
}: Pick<Props, 'scale' | 'ticks' | 'format'> & { className?: string; left: number; right: number }) {
  return (
    <Axis
      orient="left"
      className={className}
      transform={`translate(${left},0)`}
      {...p}
      tickSize={-(right - left)}
      domain={false}
    />
  );
}
