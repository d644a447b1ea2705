import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RunView } from '../../src/client/worker-state';
import { Figure } from '../../src/ui/figure/Figure';
import { FIRST_DIP_MEASURED, firstDipWhy } from '../../src/ui/figure/run/first-dip';
import { FIGURE_PROPS, record, run } from './fixtures';

/** The default run's held-out success, correct sums of 30 at steps 0..40 (`npm run workshop -- --json`, seed 4). */
const SEED_4 = [
  24, 18, 16, 17, 17, 20, 22, 25, 26, 26, 26, 25, 27, 27, 27, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 27, 27, 28,
  28, 28, 26, 27, 26, 25, 25, 25, 25, 25, 25, 25,
];

/** A run whose held-out success is `correct[s]` of 30 at step s. */
function runOf(correct: readonly number[], over: Partial<RunView['config']> = {}): RunView {
  const base = run(1, over.faulty ?? false, 0);
  return {
    ...base,
    config: { ...base.config, ...over },
    steps: correct.map((c, s) => record(s, c / 30, s === 0 ? null : 0.7)),
  };
}

describe('the first dip, said beside the held-out chart', () => {
  it('says what the default run did, step by step, in its own numbers', () => {
    expect(firstDipWhy(runOf(SEED_4))).toMatch(
      /^This run’s held-out success fell 80% → 53% at step 2, back above its start by step 7 \(83% at step 40\)\. /,
    );
  });

  it('gives the cause in the measurement’s numbers: the dip with and without the warm-up and the filled moments', () => {
    const why = firstDipWhy(runOf(SEED_4))!;
    expect(why).toContain('Adam starts with empty moments');
    expect(why).toContain('the dip averages 16 points; with the learning rate warmed up over the first 10 steps, 2;');
    expect(why).toContain('once Adam’s moments have filled on 5 batches, 1');
    expect(why).toContain('held-out ends no lower (90% and 93%, against 87%)');
    expect(why).toContain('temperature 0.5) still dips 15.');
  });

  it('quotes the faulty calculator’s measurement for a faulty run', () => {
    const why = firstDipWhy(runOf(SEED_4, { faulty: true }))!;
    expect(why).toContain(
      `seeds 1–5 with the faulty calculator the dip averages ${Math.round(FIRST_DIP_MEASURED.faulty.plate.dip)} points`,
    );
  });

  it('tells a dip as soon as it happens, before the run has climbed back', () => {
    expect(firstDipWhy(runOf([24, 18]))).toMatch(/^This run’s held-out success fell 80% → 60% at step 1\. /);
    expect(firstDipWhy(runOf([24, 18, 16, 17]))).toMatch(/fell 80% → 53% at step 2 \(57% at step 3\)\. /);
  });

  it('says nothing when the run does not dip: rising, or one sum below its start, or falling only after step 5', () => {
    expect(firstDipWhy(run(1, false, 40))).toBeNull();
    expect(firstDipWhy(runOf([24, 23, 24, 25, 26, 26]))).toBeNull();
    expect(firstDipWhy(runOf([24, 24, 25, 25, 25, 24, 18, 17]))).toBeNull();
    expect(firstDipWhy(runOf([24]))).toBeNull();
  });

  it('says nothing where the dip is not measured: the two-call world, or the three-call agent on one-call sums', () => {
    expect(firstDipWhy(runOf(SEED_4, { episode: 'two-calls' }))).toBeNull();
    expect(firstDipWhy(runOf(SEED_4, { agent: 'three-calls' }))).toBeNull();
  });

  it('stands under the held-out chart, once, when the run dips, and is absent when it does not', () => {
    const shown = renderToStaticMarkup(createElement(Figure, { ...FIGURE_PROPS, run: runOf(SEED_4) }));
    expect(shown.match(/data-testid="dip-why"/g)).toHaveLength(1);
    expect(shown).toMatch(
      /<div class="chart-row chart-heldOut">.*<p class="dip-why" data-testid="dip-why">This run’s held-out success fell 80% → 53% at step 2/,
    );
    const flat = renderToStaticMarkup(createElement(Figure, { ...FIGURE_PROPS, run: run(1, false, 40) }));
    expect(flat).not.toContain('dip-why');
  });
});
