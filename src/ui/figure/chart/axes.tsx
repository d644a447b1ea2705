/**
 * A line chart's axes: the kinds of y axis (0–100%, or 0 to a loss's max), and the two axes
 * (src/ui/figure/chart/Axis.tsx) with the x axis's title.
 */
import * as d3 from 'd3';
import { pct } from '../../format';
import { Axis, GridAxis } from './Axis';
import { M, stepTicks, xScale, yScale } from './frame';

export interface YAxis {
  max: number;
  format: (v: number) => string;
  ticks: number[];
}

export const PERCENT: YAxis = { max: 1, format: pct, ticks: [0, 0.25, 0.5, 0.75, 1] };

/** One axis object per top: the chart redraws its axes only when the axis changes. */
const lossAxes = new Map<number, YAxis>();

/**
 * A 0–max axis for a loss: max from the data, rounded up to a tidy number; with nothing above 0
 * to scale (no data yet), 0–1. Each tick is written with as many decimals as the ticks' spacing
 * needs (no trailing zeros), so no two ticks ever read alike: a top of 1e-6 once drew "0" six times.
 */
export function lossAxis(values: readonly number[]): YAxis {
  const top = Math.max(0, ...values.filter(Number.isFinite));
  const scale = d3
    .scaleLinear()
    .domain([0, top > 0 ? top : 1])
    .nice(4);
  const max = scale.domain()[1]!;
  if (!lossAxes.has(max)) {
    const ticks = scale.ticks(4);
    const decimals = d3.precisionFixed(ticks[1]! - ticks[0]!);
    lossAxes.set(max, { max, format: d3.format(`.${decimals}~f`), ticks });
  }
  return lossAxes.get(max)!;
}

interface Props {
  width: number;
  height: number;
  frame: number;
  yAxis: YAxis;
  /** Under the x axis, e.g. "fine-tuning step". */
  title: string;
}

export function Axes({ width, height, frame, yAxis, title }: Props) {
  const xs = xScale(frame, width);
  const ys = yScale(yAxis.max, height);
  return (
    <>
      <GridAxis scale={ys} ticks={yAxis.ticks} format={yAxis.format} left={M.left} right={xs.range()[1]!} />
      <Axis
        orient="bottom"
        className="axis axis-x"
        transform={`translate(0,${height - M.bottom})`}
        scale={xs}
        ticks={stepTicks(frame)}
      />
      <text className="axis-title" x={xs(frame)} y={height - 2} textAnchor="end">
        {title}
      </text>
    </>
  );
}
