// What a practitioner reads, as the figure shows it and as a run is taken away.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { INITIAL_STATE } from '../../src/client/worker-state';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import { METRIC_NAMES } from '../../src/rl/metrics';
import { runJsonl, runJson } from '../../src/ui/figure/export/export';
import { Figure, type FigureProps } from '../../src/ui/figure/Figure';
import { VITALS } from '../../src/ui/figure/practitioner/vital-signs';
import { FIGURE_PROPS, run } from './fixtures';

const figure = (over: Partial<FigureProps>) =>
  renderToStaticMarkup(
    createElement(Figure, {
      ...FIGURE_PROPS,
      worker: { ...INITIAL_STATE, status: 'done', loading: null },
      ...over,
    }),
  );

/** A finished run at μ = 4 whose later steps clipped. */
function reusedRun() {
  const r = run(1, false, 6);
  r.config = { ...r.config, updatesPerBatch: 4 };
  r.steps = r.steps.map((s) => (s.step === 0 ? s : { ...s, clip: { low: 0.01, high: 0.03, region: 0.04 } }));
  return r;
}

describe('what a practitioner reads', () => {
  it('at μ = 1 says in words that the ratio is exactly 1 and nothing can be clipped, instead of a flat line', () => {
    const html = figure({ run: run(1, false, 6) });
    expect(html).toContain('data-testid="clip-words"');
    expect(html).toMatch(/the ratio is exactly 1 and nothing can be clipped/);
    expect(html).not.toContain('data-testid="clip-chart"');
  });

  it('at μ = 4 draws the clip’s low, high and region per step, under TRL’s name', () => {
    const html = figure({ run: reusedRun(), settings: { ...PLATE_SETTINGS, updatesPerBatch: 4 } });
    expect(html).toContain('data-testid="clip-chart"');
    expect(html).toContain('<code>clip_ratio/region_mean</code>');
    expect(html).toContain('step 6: low_mean 1.0% · high_mean 3.0% · region_mean 4.0%');
    expect(html).not.toContain('data-testid="clip-words"');
  });

  it('shows each vital sign under its TRL name, with its first → last readout and what to watch for', () => {
    const html = figure({ run: run(1, false, 6) });
    for (const v of VITALS) {
      expect(html).toContain(`data-testid="vital-${v.name}"`);
      expect(html).toContain(`<code>${v.name}</code>`);
    }
    expect(html).toContain('0.40 → 0.37'); // the entropy, steps 1 → 6 (0.4 − step / 200)
    // The groups that teach nothing, under prime-rl's names beside TRL's split.
    expect(html).toContain('prime-rl logs it as <code>reward/solve_none</code>');
    expect(html).toContain('prime-rl logs it as <code>reward/solve_all</code>');
    expect(html).toContain('prime-rl logs 1 − it as <code>reward/effective_batch_size</code>');
    expect(html).toContain('3% → 3%'); // two of 64 calls failed (1/32)
  });

  it('says the steps each vital sign’s readout is from, first and latest', () => {
    const html = figure({ run: run(1, false, 6) });
    const readouts = [...html.matchAll(/<p class="vital-readout">([^<]*)<\/p>/g)].map((m) => m[1]);
    expect(readouts).toHaveLength(VITALS.length);
    for (const r of readouts) expect(r).toMatch(/ → .* \(step 1 → step 6\)$/);
    expect(readouts).toContain('0.40 → 0.37 (step 1 → step 6)'); // the entropy
  });

  it('names μ beside its select as TRL’s num_iterations', () => {
    const html = figure({});
    expect(html).toMatch(/Updates per batch \(μ\) <select[^]*?<span class="hint"[^>]*>\(TRL’s num_iterations: /);
  });

  it('offers μ as a labelled select, the plate’s choice named', () => {
    const html = figure({});
    expect(html).toMatch(/Updates per batch \(μ\) <select[^>]*>.*1 \(the plate’s\)/);
  });
});

describe('a run taken away', () => {
  it('as JSON Lines is one object per GRPO step under TRL’s names, that parses back', () => {
    const r = reusedRun();
    const lines = runJsonl(r).trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, number>);
    parsed.forEach((m, i) => {
      expect(Object.keys(m)).toEqual([...METRIC_NAMES]);
      expect(m.step).toBe(i + 1);
      expect(m.reward).toBe(r.steps[i + 1]!.meanReward);
      expect(m['clip_ratio/region_mean']).toBe(0.04);
    });
  });

  it('says beside the JSON Lines which std reward_std takes (n − 1, as TRL’s), which the advantages take, and that μ is num_iterations', () => {
    const html = figure({ run: reusedRun() });
    const line = /<p class="run-export">(.*?)<\/p>/.exec(html)![1]!;
    expect(line).toContain('reward_std divides by n − 1, as TRL’s does');
    expect(line).toContain('advantages divide by the group’s population std (÷ n)');
    expect(line).toContain('μ, the updates per batch, is TRL’s num_iterations');
    expect(line).toContain('reward/solve_none, reward/solve_all and reward/effective_batch_size are prime-rl’s names');
  });

  it('as JSON carries the same metrics beside the records', () => {
    const r = reusedRun();
    const json = JSON.parse(runJson(r, { plate: 'XXVI.3', backend: 'wasm', shown: null }));
    expect(json.metrics).toEqual(
      runJsonl(r)
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    );
    expect(json.config.updatesPerBatch).toBe(4);
  });
});
