/**
 * One group's advantages as bars from a zero line (rewards written under them): the group's
 * rewards become advantages. d3 computes the scales in render, JSX draws the bars and the axis
 * (chart/Axis.tsx). Fixed domains, so groups and steps compare at a glance:
 * ±3 for group-relative advantages (one success in eight gives +2.64), 0–1 for the raw reward.
 */
import * as d3 from 'd3';
import { useId } from 'react';
import type { Advantage } from '../../../config';
import { GridAxis } from '../chart/Axis';
import { signed } from './group-arithmetic';
import { useWidth } from '../chart/useWidth';

interface Props {
  rewards: readonly number[];
  advantages: readonly number[];
  kind: Advantage;
  /** The group's sum, for the chart's name. */
  label: string;
}

const HEIGHT = 132;
const M = { top: 8, right: 6, bottom: 30, left: 34 };
const MAX_WIDTH = 340;
const TICK_FORMAT = d3.format('~g');
/** The advantage's axis: the raw reward is 0 or 1; a group-relative advantage lies within ±3 here. */
const DOMAIN: Record<Props['kind'], [number, number]> = { raw: [0, 1], group: [-3, 3] };
/** Beside the chart: what a bar is, and what to look for. */
const CAPTION: Record<Props['kind'], string> = {
  group:
    'Each bar is one episode’s advantage, its reward under it: above the line the update makes the episode’s characters more likely, below it less. Look for bars on both sides; all at 0, the group taught nothing.',
  raw: 'Each bar is one episode’s advantage, with the raw reward its reward itself: a rewarded episode is pushed up, a failed one not at all. Look for the failed ones: nothing pushes them down.',
};

export function GroupChart({ rewards, advantages, kind, label }: Props) {
  const [wrap, measured] = useWidth<HTMLDivElement>(MAX_WIDTH);
  const width = Math.min(measured, MAX_WIDTH);
  const domain = DOMAIN[kind];
  const x = d3.scaleBand<number>(d3.range(rewards.length), [M.left, width - M.right]).padding(0.3);
  const y = d3.scaleLinear(domain, [HEIGHT - M.bottom, M.top]);

  const captionId = useId();
  const name = `Advantages of the ${rewards.length} episodes of ${label}: ${advantages.map((a, i) => `${signed(a)} (reward ${rewards[i]})`).join(', ')}`;
  return (
    <div ref={wrap} className="group-chart">
      <svg
        role="img"
        aria-label={name}
        aria-describedby={captionId}
        width={width}
        height={HEIGHT}
        viewBox={`0 0 ${width} ${HEIGHT}`}
      >
        <GridAxis
          className="axis"
          scale={y}
          ticks={kind === 'raw' ? [0, 0.5, 1] : [-3, -2, -1, 0, 1, 2, 3]}
          format={TICK_FORMAT}
          left={M.left}
          right={width - M.right}
        />
        <line className="zero" x1={M.left} x2={width - M.right} y1={y(0)} y2={y(0)} />
        {advantages.map((a, i) => {
          const top = Math.min(y(a), y(0));
          return (
            <g key={i}>
              <rect
                className={a > 0 ? 'up' : a < 0 ? 'down' : 'nil'}
                x={x(i)}
                width={x.bandwidth()}
                y={top}
                height={Math.max(1, Math.abs(y(a) - y(0)))}
              />
              <text className="reward" x={x(i)! + x.bandwidth() / 2} y={HEIGHT - M.bottom + 14} textAnchor="middle">
                {rewards[i]}
              </text>
            </g>
          );
        })}
        <text className="axis-title" x={M.left} y={HEIGHT - 3}>
          reward of each episode
        </text>
      </svg>
      <p className="chart-caption" id={captionId}>
        {CAPTION[kind]}
      </p>
    </div>
  );
}
