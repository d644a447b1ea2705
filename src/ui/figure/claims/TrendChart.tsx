/**
 * A claim against the number of calls: per length, the reference seeds' spread (a bar) and mean
 * (a grey dot, joined across lengths), the reader's figure as a mark in its calculator's colour,
 * and on the cap's chart the 0.7ᵏ a calculator that lies 30% of the time per call would leave.
 * Each number it shows is a mean over a run's GRPO steps: its description names that window.
 */
import * as d3 from 'd3';
import { GRPO } from '../../../config';
import type { CalculatorName } from '../../../env/calculator';
import { Axis, GridAxis } from '../chart/Axis';
import type { YAxis } from '../chart/axes';
import { M } from '../chart/frame';
import { callsWords } from '../../../env/world';
import type { TrendPoint } from './longer-episode';
import { useWidth } from '../chart/useWidth';

interface Props {
  name: string;
  points: readonly TrendPoint[];
  /** The y axis; a percentage axis is cut to the data's top (fitAxis). */
  y: YAxis;
  /** The reader's marks' colour: the calculator of the runs they come from. */
  tone: CalculatorName;
  /** Draw (1 − faulty rate)^calls: the cap each call's lie would leave. */
  capLine?: boolean;
  height?: number;
  captionId: string;
}

/** The cap one call leaves: the faulty calculator answers right 70% of the time. */
const KEEP = 1 - GRPO.faultyRate;

/** The chart in words: each length's mean and spread, the reader's figures, the window they are means over. */
function trendLabel(name: string, points: readonly TrendPoint[], format: (v: number) => string): string {
  const at = (p: TrendPoint) => callsWords(p.episode);
  const ref = points.filter((p) => p.mean !== null);
  const mine = points.filter((p) => p.yours !== null);
  const parts = [
    ref.length
      ? `our reference runs (a mean over each run’s ${GRPO.steps} GRPO steps, then over ${ref[0]!.seeds} seeds): ${ref
          .map((p) => `${at(p)} ${format(p.mean!)} (seeds ${format(p.lo!)}–${format(p.hi!)})`)
          .join(', ')}`
      : 'the reference runs are not in yet',
    ...(mine.length
      ? [
          `your runs (a mean over the GRPO steps so far): ${mine
            .map((p) => `${at(p)} ${format(p.yours!.value)} over ${p.yours!.steps} steps`)
            .join(', ')}`,
        ]
      : []),
  ];
  return `${name} against the number of calls: ${parts.join('; ')}`;
}

/** Tops a percentage axis may take: a claim of a few percent is read on 0–10%, not on 0–100%. */
const TOPS = [0.1, 0.2, 0.5, 1];

/** A percentage axis cut to the smallest top above every figure shown (with room for the marks). */
function fitAxis(y: YAxis, points: readonly TrendPoint[]): YAxis {
  if (y.max !== 1) return y;
  const top = Math.max(0, ...points.flatMap((p) => [p.hi ?? 0, p.yours?.value ?? 0]));
  const max = TOPS.find((t) => top * 1.15 <= t) ?? 1;
  return { ...y, max, ticks: [0, max / 2, max] };
}

export function TrendChart({ name, points, y: given, tone, capLine = false, height = 150, captionId }: Props) {
  const yAxis = fitAxis(given, points);
  const [wrap, width] = useWidth<HTMLDivElement>(240);
  const calls = points.map((p) => p.calls);
  const x = d3
    .scaleLinear()
    .domain([Math.min(...calls) - 0.4, Math.max(...calls) + 0.4])
    .range([M.left, Math.max(M.left + 60, width - 16)]);
  const y = d3.scaleLinear([0, yAxis.max], [height - M.bottom, M.top]);
  const clamp = (v: number) => y(Math.min(v, yAxis.max));
  return (
    <div ref={wrap} className="chart trend-chart">
      <svg
        role="img"
        aria-label={trendLabel(name, points, yAxis.format)}
        aria-describedby={captionId}
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
      >
        <GridAxis scale={y} ticks={yAxis.ticks} format={yAxis.format} left={M.left} right={x.range()[1]!} />
        <Axis
          orient="bottom"
          className="axis axis-x"
          transform={`translate(0,${height - M.bottom})`}
          scale={x}
          ticks={calls}
          format={(c) => `${c} call${c === 1 ? '' : 's'}`}
        />
        <Marks points={points} x={x} clamp={clamp} capLine={capLine} tone={tone} />
      </svg>
    </div>
  );
}

/** The marks: the cap's line, the reference bars, means and their line, the reader's diamonds. */
function Marks({
  points,
  x,
  clamp,
  capLine,
  tone,
}: {
  tone: CalculatorName;
  points: readonly TrendPoint[];
  x: d3.ScaleLinear<number, number>;
  clamp: (v: number) => number;
  capLine: boolean;
}) {
  const ref = points.filter((p) => p.mean !== null);
  const mine = points.filter((p) => p.yours !== null);
  const path = d3.line<[number, number]>(
    ([c]) => x(c),
    ([, v]) => clamp(v),
  );
  const cap = capLine ? points.map((p) => [p.calls, KEEP ** p.calls] as [number, number]) : [];
  return (
    <>
      {cap.length > 0 && (
        <g className="cap-line">
          <path d={path(cap) ?? ''} />
          {/* Over the middle of its first segment, clear of the axis's labels. */}
          <text
            x={(x(cap[0]![0]) + x(cap[1]![0])) / 2}
            y={(clamp(cap[0]![1]) + clamp(cap[1]![1])) / 2 - 10}
            textAnchor="middle"
          >
            0.7ᵏ
          </text>
        </g>
      )}
      <g className="trend-reference">
        {ref.map((p) => (
          <line key={p.calls} className="spread" x1={x(p.calls)} x2={x(p.calls)} y1={clamp(p.lo!)} y2={clamp(p.hi!)} />
        ))}
        {ref.length > 1 && <path d={path(ref.map((p) => [p.calls, p.mean!])) ?? ''} />}
        {ref.map((p) => (
          <circle key={p.calls} cx={x(p.calls)} cy={clamp(p.mean!)} r={3.5} />
        ))}
      </g>
      <g className={`trend-yours tone-${tone}`}>
        {mine.length > 1 && <path d={path(mine.map((p) => [p.calls, p.yours!.value])) ?? ''} />}
        {mine.map((p) => (
          <rect
            key={p.calls}
            x={x(p.calls) + 6 - 4}
            y={clamp(p.yours!.value) - 4}
            width={8}
            height={8}
            transform={`rotate(45 ${x(p.calls) + 6} ${clamp(p.yours!.value)})`}
          />
        ))}
      </g>
    </>
  );
}
