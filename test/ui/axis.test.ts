// An axis drawn by React as d3-axis draws one (src/ui/figure/chart/Axis.tsx): the same ticks,
// half-pixel offsets, tick lines and label placement, so the charts read as they did.
import * as d3 from 'd3';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Axis } from '../../src/ui/figure/chart/Axis';

const x = d3.scaleLinear([0, 40], [40, 440]);
const y = d3.scaleLinear([0, 1], [100, 10]);

describe('an axis as d3-axis draws it', () => {
  it('along the bottom, labelled by the scale’s own tick format: a domain line, each tick half a pixel past its value, its line 6 px down and its label under it', () => {
    const html = renderToStaticMarkup(
      createElement(Axis, {
        orient: 'bottom',
        className: 'axis axis-x',
        transform: 'translate(0,100)',
        scale: x,
        ticks: [0, 20, 40],
      }),
    );
    expect(html).toContain('text-anchor="middle"');
    expect(html).toContain('<path class="domain" stroke="currentColor" d="M40.5,0.5H440.5"></path>');
    expect(html).toContain(
      '<g class="tick" opacity="1" transform="translate(240.5,0)"><line stroke="currentColor" y2="6"></line><text fill="currentColor" y="9" dy="0.71em">20</text></g>',
    );
    expect(html.match(/class="tick"/g)).toHaveLength(3);
  });

  it('on the left as grid lines: ticks across the chart, labels 3 px left of it, no domain line', () => {
    const html = renderToStaticMarkup(
      createElement(Axis, {
        orient: 'left',
        className: 'axis axis-y',
        transform: 'translate(40,0)',
        scale: y,
        ticks: [0, 0.5, 1],
        format: (v: number) => `${v * 100}%`,
        tickSize: -400,
        domain: false,
      }),
    );
    expect(html).toContain('text-anchor="end"');
    expect(html).not.toContain('class="domain"');
    expect(html).toContain(
      '<g class="tick" opacity="1" transform="translate(0,55.5)"><line stroke="currentColor" x2="400"></line><text fill="currentColor" x="-3" dy="0.32em">50%</text></g>',
    );
  });
});
