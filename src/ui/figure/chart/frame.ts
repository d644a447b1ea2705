/**
 * A line chart's frame: its margins and its two scales, computed in render from the chart's
 * width and height, for the marks and the axes alike.
 */
import * as d3 from 'd3';

export const M = { top: 16, right: 58, bottom: 28, left: 40 };

export type Point = readonly [number, number];
export type Scale = d3.ScaleLinear<number, number>;

/** Steps 0..frame across the plot, which is never narrower than 40 px. */
export const xScale = (frame: number, width: number): Scale =>
  d3.scaleLinear([0, frame], [M.left, Math.max(M.left + 40, width - M.right)]);

export const yScale = (max: number, height: number): Scale => d3.scaleLinear([0, max], [height - M.bottom, M.top]);

/** The step axis's ticks over 0..frame: every 5 steps, every 10 past 20, every 50 past 100 (fine-tuning's 200). */
export const stepTicks = (frame: number): number[] => d3.range(0, frame + 1, frame > 100 ? 50 : frame > 20 ? 10 : 5);
