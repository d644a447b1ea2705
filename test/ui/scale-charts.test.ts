// The closing claims at the plate's scale, as the figure draws them: three charts from 1 to 300
// calls with the measured points and the model's line, every number in their words the one the
// scale model computes from the shipped reference runs, and whether it holds at three calls.
import { readFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/pipeline/settings';
import { scaleReport } from '../../src/rl/scale';
import { ScaleCharts } from '../../src/ui/figure/claims/ScaleCharts';
import { ScaleChartsDrawn } from '../../src/ui/figure/claims/ScaleChartsDrawn';
import { scaleView } from '../../src/ui/figure/claims/scale-view';
import { parseReferenceRuns, type ReferenceRuns, type ReferenceState } from '../../src/ui/figure/reference';
import { renderFigure } from './fixtures';

const SHIPPED: ReferenceRuns = parseReferenceRuns(
  JSON.parse(readFileSync('public/reference-runs-three-calls.json', 'utf8')),
);
const REPORT = scaleReport(SHIPPED.runs, { latencies: SETTINGS.toolLatencyMs.choices, maxCalls: 300 })!;
const render = (reference: ReferenceState) => renderToStaticMarkup(createElement(ScaleCharts, { reference }));
const drawn = (runs: ReferenceRuns) => renderToStaticMarkup(createElement(ScaleChartsDrawn, { runs }));
const text = (html: string) => html.replace(/<[^>]+>/g, '');

describe('the scale charts, from the shipped reference runs', () => {
  const html = drawn(SHIPPED);

  it('draw one chart a claim — sparser reward, credit, sampling — each an image with its words', () => {
    for (const key of ['sparser', 'credit', 'sampling'])
      expect(html).toMatch(new RegExp(`data-testid="scale-chart-${key}"[^]*?<svg role="img" aria-label="[^"]+"`));
    expect(html.match(/<svg role="img"/g)).toHaveLength(3);
  });

  it('put the measured points at one, two and three calls on a log axis from 1 to 300, under the model’s line', () => {
    const sparser = /data-testid="scale-chart-sparser"([^]*?)<\/svg>/.exec(html)![1]!;
    expect(sparser.match(/<circle /g)!.length).toBeGreaterThanOrEqual(6); // reward and all-fail at 3 lengths
    expect(sparser.match(/class="cap-line scale-model"/g)).toHaveLength(2);
    const ticks = [...sparser.matchAll(/<g class="tick"[^>]*><line[^>]*><\/line><text[^>]*>([^<]*)<\/text>/g)].map(
      (m) => m[1],
    );
    expect(ticks).toEqual(expect.arrayContaining(['1', '3', '10', '30', '100', '300']));
    // Log scale: 1 → 3 spans as much as 100 → 300.
    const at = (t: string) =>
      Number(new RegExp(`translate\\(([\\d.]+),0\\)"><line[^>]*></line><text[^>]*>${t}<`).exec(sparser)![1]);
    expect(at('3') - at('1')).toBeCloseTo(at('300') - at('100'), 1);
  });

  it('label the lines as a model with its q and interval, as the fit computes them', () => {
    const { q, lo, hi } = REPORT.perCallSuccess;
    expect(text(html)).toContain(
      `a model, not a measurement — each added call right with probability q = ${q.toFixed(3)} (95% over the seeds: ${lo.toFixed(3)}–${hi.toFixed(3)}`,
    );
  });

  it('say whether the model holds at three calls, with the numbers of the check computed from the runs', () => {
    const h = REPORT.heldOutCheck;
    const words = /data-testid="scale-check" data-holds="(true|false)">([^<]*)</.exec(html)!;
    expect(words[1]).toBe(String(h.holds));
    const one = (x: number) => `${(100 * x).toFixed(1)}%`;
    expect(words[2]).toContain(
      `sampled reward: predicted ${one(h.predicted.reward)}, measured ${one(h.measured.reward)} ± ${one(h.se.reward)}`,
    );
    expect(words[2]).toContain(
      `all-fail groups: predicted ${one(h.predicted.allFail)}, measured ${one(h.measured.allFail)}`,
    );
    expect(words[2]).toContain(h.holds ? 'the model holds at 3 calls' : 'the model does not hold at 3 calls');
  });

  it('name where all-fail groups pass half, and say the pushed-down share rises then falls', () => {
    const half = REPORT.halfAllFailAt;
    expect(text(html)).toContain(
      half === null
        ? 'all-fail groups stay under half up to 300 calls'
        : `all-fail groups pass half at about ${half} calls`,
    );
    expect(text(html)).toMatch(/then falls \([\d.]+% at 300\): once groups stop being paid they push nothing down/);
  });

  it('say what is measured and what is modelled, the measured figures being the claims’ own', () => {
    const reward = REPORT.lengths.map(
      (l) => `${((100 * l.reward.reduce((s, x) => s + x, 0)) / l.reward.length).toFixed(1)}%`,
    );
    expect(text(html)).toContain(`Measured at one to three calls: sampled reward ${reward.join(' → ')}`);
    expect(text(html)).toContain('grey, what our reference runs measured at one to three calls (5 seeds');
  });

  it('compute the model once a file, not once a render', () => {
    expect(scaleView(SHIPPED)).toBe(scaleView(SHIPPED));
  });
});

describe('the scale charts without the model’s inputs', () => {
  it('say the runs are on their way, left out, or too old to fit, and draw no line', () => {
    expect(render(null)).toContain('The scale charts come with the reference runs, on their way.');
    expect(render({ unavailable: 'x', why: 'y' })).toContain('the scale charts are left out');
    const older = { ...SHIPPED, runs: SHIPPED.runs.map(({ paidGroups: _, stepTime: __, ...r }) => r) };
    const html = drawn(older);
    expect(html).toContain('re-make it with npm run reference-runs -- --agent three-calls');
    expect(html).not.toContain('<svg');
  });
});

describe('the figure', () => {
  it('draws the scale charts in the longer-episode section once the held-fixed agent’s runs are in, their chunk first', () => {
    // Rendered on a server, the chunk may not have come (a line stands in), or have come already in
    // this test worker (the unit project does not isolate files): either way, in the claims' section.
    const html = renderFigure({ referenceThreeCalls: { runs: SHIPPED } });
    expect(html).toMatch(
      /class="longer-episode"[^]*data-testid="scale-charts"[^]*(Drawing the scale charts…|data-testid="scale-chart-)/,
    );
    expect(renderFigure({})).toMatch(/data-testid="scale-charts"[^]*on their way/);
  });
});
