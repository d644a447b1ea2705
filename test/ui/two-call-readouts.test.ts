// A run outside the plate's world reads out its own numbers: no plate marks beside a two-call run
// (or the two-call agent on one-call sums), and a sentence, from its reference runs, where it ends
// below its start.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PLATE_SETTINGS, type RunSettings } from '../../src/pipeline/settings';
import { belowStart } from '../../src/ui/figure/curves';
import { Figure } from '../../src/ui/figure/Figure';
import { parseReferenceRuns, runsLike } from '../../src/ui/figure/reference';
import type { RunView } from '../../src/ui/figure/types';
import { FIGURE_PROPS, record, run } from './fixtures';

const TWO_CALL_AGENT = parseReferenceRuns(
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../../public/reference-runs-three-calls.json'), 'utf8')),
);

/** A finished run with `settings`, held-out 25 → 24 of 30 sums (83% → 80%), as seed 2 of the two-call world does. */
function endingBelow(settings: Partial<RunSettings>): RunView {
  const r = run(3, false, 40);
  const steps = r.steps.map((s) => ({ ...s, heldOut: 25 / 30, heldOutCorrect: 25 }));
  steps[40] = { ...record(40, 24 / 30, 0.9), heldOutCorrect: 24 };
  return { ...r, config: { ...r.config, ...settings }, steps, end: 'done' } as RunView;
}

const render = (r: RunView) =>
  renderToStaticMarkup(
    createElement(Figure, {
      ...FIGURE_PROPS,
      run: r,
      settings: { ...PLATE_SETTINGS, episode: r.config.episode, agent: r.config.agent },
      referenceThreeCalls: { runs: TWO_CALL_AGENT },
    }),
  );

describe('the readouts of a run outside the plate’s world', () => {
  it('carry no plate numbers and draw no plate marks beside a two-call run', () => {
    const html = render(endingBelow({ episode: 'two-calls' }));
    expect(html).not.toContain('readout-plate');
    expect(html).not.toMatch(/plate: 77%/);
    expect(html).not.toContain('class="marker');
    expect(html).not.toMatch(/the plate’s numbers are marked on the one-call world only/);
  });

  it('say why a two-call run ends below its start: one sum is 3.3 points, and where its reference runs end', () => {
    const r = endingBelow({ episode: 'two-calls' });
    const like = runsLike(TWO_CALL_AGENT, r.config);
    expect(like).toHaveLength(5);
    const sentence = belowStart(r, like)!;
    expect(sentence).toBe(
      'Held-out success counts 30 sums, one sum is 3.3 points: this run ends one sum below its start (83% → 80%). Our 5 reference runs made like it end at 89% on average (80%–97%), 1 of them below the start: 40 GRPO steps do not lift every seed.',
    );
    expect(render(r)).toContain(sentence.replace('→', '→'));
  });

  it('say nothing of the kind where the run ends at or above its start, or is the plate’s', () => {
    const up = endingBelow({ episode: 'two-calls' });
    up.steps[40] = { ...up.steps[40]!, heldOut: 26 / 30, heldOutCorrect: 26 };
    expect(belowStart(up, [])).toBeNull();
    expect(belowStart(endingBelow({}), [])).toBeNull();
  });

  it('treat the two-call agent on one-call sums as outside the plate’s world: its own sentence, no plate marks', () => {
    const r = endingBelow({ episode: 'one-call', agent: 'three-calls' });
    const html = render(r);
    expect(html).not.toContain('readout-plate');
    expect(html).not.toContain('class="marker');
    expect(belowStart(r, runsLike(TWO_CALL_AGENT, r.config))).toMatch(
      /^Held-out success counts 30 sums, one sum is 3.3 points: this run ends one sum below its start \(83% → 80%\)\. Our 5 reference runs made like it end at 69% on average/,
    );
  });

  it('keep the plate’s marks and numbers in the plate’s own world', () => {
    const html = renderToStaticMarkup(createElement(Figure, { ...FIGURE_PROPS, run: run(1, false, 40) }));
    expect(html).toContain('readout-plate');
    expect(html).toContain('class="marker');
  });
});
