/**
 * A line chart's axes: the kinds of y axis (0–100%, or 0 to a loss's max), and the two axes
 * (src/ui/figure/chart/Axis.tsx) with the x axis's title.
 */
import * as d3 from 'd3';
import { pct } from '../../format';
import { Axis } from './Axis';
import { M, stepTicks, xScale, yScale } from './frame';

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
  const top = d3
    .scaleLinear()
    .domain([0, Math.max(1e-6, ...values.filter(Number.isFinite))])
    .nice(4);
  const max = top.domain()[1]!;
  if (!lossAxes.has(max)) lossAxes.set(max, { max, format: LOSS_FORMAT, ticks: top.ticks(4) });
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
      <Axis
        orient="left"
        className="axis axis-y"
        transform={`translate(${M.left},0)`}
        scale={ys}
        ticks={yAxis.ticks}
        format={yAxis.format}
        tickSize={-(xs.range()[1]! - M.left)}
        domain={false}
      />
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
