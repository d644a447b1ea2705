// The grader and the time split as the figure shows them: labels, files, notes from the
// reference runs, the episode viewer's marks, the readouts — from plain props, no worker.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PLATE_SETTINGS, settingsLabel } from '../../src/pipeline/settings';
import { INITIAL_STATE } from '../../src/client/worker-state';
import { pageUrlFor, runCsv, runFileName } from '../../src/ui/figure/export/export';
import { Figure, type FigureProps } from '../../src/ui/figure/Figure';
import { configFigures, settingNotes } from '../../src/ui/figure/run/notes';
import { curveOf, parseReferenceRuns, referenceBand, runsLike } from '../../src/ui/figure/reference';
import { splitReadout, splitSentence, splitSummary } from '../../src/ui/figure/time/time-split';
import { parseUrlOptions } from '../../src/ui/options';
import { pct } from '../../src/ui/format';
import { FIGURE_PROPS, record, run } from './fixtures';

const REF = parseReferenceRuns(
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../../public/reference-runs.json'), 'utf8')),
);
const plate = { ...PLATE_SETTINGS };

/** A run with the crash-pass grader whose last step paid 3 malformed episodes. */
function crashRun() {
  const r = run(7, false, 3);
  const last = r.steps.at(-1)!;
  const episodes = last.episodes.map((e, i) =>
    i < 3
      ? {
          ...e,
          text: '^23+45=B2x',
          authors: 'pppppppmmm',
          trained: '0000000111',
          reason: 'malformed call' as const,
          reward: 1,
          correct: false,
        }
      : e,
  );
  const steps = [...r.steps.slice(0, -1), { ...last, episodes, meanReward: 0.55, trueSuccess: 0.5, rewardedByBug: 3 }];
  return { ...r, config: { ...r.config, grader: 'crash-pass' as const }, steps };
}

const render = (over: Partial<FigureProps>) =>
  renderToStaticMarkup(
    createElement(Figure, {
      ...FIGURE_PROPS,
      worker: { ...INITIAL_STATE, status: 'running', loading: null },
      ...over,
    }),
  );

describe('the grader in the figure', () => {
  it('is named in a run’s label, its file name, its reproduce link and its CSV', () => {
    const r = crashRun();
    expect(settingsLabel(r.config)).toBe('reliable, a crash counts as a pass');
    expect(settingsLabel({ ...r.config, faulty: true, grader: 'trusts-tool' })).toBe(
      'faulty, grader trusts the calculator',
    );
    expect(settingsLabel({ ...r.config, grader: 'exact' })).toBe('reliable');
    expect(runFileName(r.config)).toBe('plate-XXVI.3-run-agent-reliable-crash-pass-seed-1');
    expect(new URL(pageUrlFor('https://x.example/p/?embed=1', r.config)).searchParams.get('grader')).toBe('crash-pass');
    const [head, ...rows] = runCsv(r).trim().split('\n');
    expect(head!.split(',').slice(-5)).toEqual([
      'true_success',
      'rewarded_by_bug',
      'sampling_ms',
      'update_ms',
      'evaluation_ms',
    ]);
    expect(rows.at(-1)!.split(',').slice(-5)).toEqual(['0.5', '3', '200', '250', '50']);
  });

  it('comes from the URL, and a bad value is named in a note', () => {
    expect(parseUrlOptions('?grader=trusts-tool', 'https://x.example/p/').options).toEqual({ grader: 'trusts-tool' });
    expect(parseUrlOptions('?grader=lenient', 'https://x.example/p/')).toEqual({
      options: {},
      notes: ['Ignored grader=lenient: expected one of exact, crash-pass, trusts-tool.'],
    });
  });

  it('picks the reference runs made with it, and reads an exact run’s true success as its reward', () => {
    for (const grader of ['exact', 'crash-pass', 'trusts-tool'] as const) {
      for (const faulty of [false, true]) {
        const like = runsLike(REF, { ...plate, faulty, grader });
        expect(
          like.map((r) => r.seed),
          `${grader} ${faulty}`,
        ).toEqual([1, 2, 3, 4, 5]);
        expect(like.every((r) => (r.grader ?? 'exact') === grader)).toBe(true);
      }
    }
    const exact = runsLike(REF, plate)[0]!;
    expect(curveOf(exact, 'trueSuccess')).toBe(exact.meanReward);
    const crash = runsLike(REF, { ...plate, grader: 'crash-pass' })[0]!;
    expect(curveOf(crash, 'trueSuccess')).toBe(crash.trueSuccess);
    expect(referenceBand(REF, { ...plate, grader: 'crash-pass' }, 'meanReward').at(-1)!.lo).toBe(1);
    expect(() =>
      parseReferenceRuns({
        steps: 1,
        runs: [{ seed: 1, faulty: false, grader: 'kind', heldOut: [0, 0], meanReward: [0] }],
      }),
    ).toThrow('run 0 grader is "kind"');
  });

  it('gets a note per bug with the reference runs’ own figures beside the exact grader’s', () => {
    for (const grader of ['crash-pass', 'trusts-tool'] as const) {
      for (const faulty of [false, true]) {
        const s = { ...plate, faulty, grader };
        const [note, ...rest] = settingNotes(s, REF);
        expect(rest).toEqual([]);
        const bug = configFigures(runsLike(REF, s))!;
        const exact = configFigures(runsLike(REF, { ...s, grader: 'exact' }))!;
        expect(note).toContain('Held-out success is still graded exactly');
        expect(note).toContain(
          `the reward over the last five steps is ${pct(bug.rewardLast5)}, true success ${pct(bug.trueLast5!)}`,
        );
        expect(note).toContain(
          `held-out success ends at ${pct(bug.heldOutEnd)}; with the exact grader the reward over the last five steps is ${pct(exact.rewardLast5)}`,
        );
      }
    }
    expect(settingNotes({ ...plate, grader: 'crash-pass' }, REF)[0]).toMatch(/learns to crash on purpose/);
    expect(settingNotes({ ...plate, grader: 'trusts-tool' }, REF)[0]).toMatch(/slips an operand/);
    expect(settingNotes({ ...plate, faulty: true, grader: 'trusts-tool' }, REF)[0]).toMatch(
      /copies one of its lies is paid in full/,
    );
    expect(settingNotes(plate, REF)).toEqual([]);
  });

  it('is chosen with a labelled control, and the episode viewer marks what only the bug paid for', () => {
    const html = render({ run: crashRun(), settings: { ...PLATE_SETTINGS, grader: 'crash-pass' } });
    expect(html).toMatch(
      /<label>Grader <select aria-describedby="[^"]+"><option value="exact">exact answer \(the plate’s\)<\/option><option value="crash-pass" selected="">/,
    );
    expect(html).toContain('(training episodes only; held-out success is always graded exactly)');
    expect(html).toContain('this run: reliable, a crash counts as a pass');
    expect(html).toContain('Graded by a bug: a crash counts as a pass');
    expect(html).toContain('3 of the step’s 64 episodes were rewarded by the bug.');
    expect(html.match(/<span class="bug-note"> rewarded by the bug<\/span>/g)).toHaveLength(3);
    expect(html).toContain('The grader counts a crash as a pass');
  });

  it('says the exact grader graded, and marks nothing, when the run is the plate’s', () => {
    const html = render({ run: run(1, false, 3) });
    expect(html).toContain('Graded by the exact answer');
    expect(html).not.toContain('rewarded by the bug');
  });
});

describe('true success beside the reward', () => {
  it('is drawn on the reward’s chart with its own readout, description and legend entry', () => {
    const html = render({ run: crashRun() });
    const reward = html.slice(html.indexOf('chart-row chart-reward'), html.indexOf('class="parts"'));
    expect(reward).toMatch(/<g class="companion"><path class="series companion-line" d="M[\d.]+,[\d.]+L/);
    expect(reward.match(/<rect x=/g)).toHaveLength(3);
    expect(reward).toContain('aria-label="Mean reward, step 3 of 40: 55%"');
    expect(reward).toContain('true success, step 3: 50%');
    expect(reward).toMatch(/data-testid="readout-companion">true success: \d+% → \d+%</);
    expect(html).toContain('(what an exact grader would have paid)');
    expect(html.slice(html.indexOf('chart-row chart-heldOut'), html.indexOf('chart-row chart-reward'))).not.toContain(
      'companion',
    );
  });
});

describe('where a step’s time goes', () => {
  it('reads the medians of the worker’s split and says which part is largest', () => {
    const steps = [record(0, 0.8, null), ...[1, 2, 3].map((s) => record(s, 0.8, 0.7))];
    const s = splitSummary(steps)!;
    expect(s).toMatchObject({
      first: 1,
      last: 3,
      ms: { sampling: 200, update: 250, evaluation: 50 },
      largest: 'update',
    });
    expect(splitReadout(s)).toBe(
      'sampling 200 ms (40%) · policy update 250 ms (50%) · held-out evaluation 50 ms (10%)',
    );
    expect(splitSentence(s)).toMatch(
      /^Here the policy update is the largest part of a step \(50%\); sampling takes 40%\. .*sampling episodes becomes the dominant cost of training\.$/,
    );
    const slowTool = splitSummary(
      steps.map((r) => ({ ...r, timeSplit: { ...r.timeSplit, sampling: r.step ? 900 : 0 } })),
    )!;
    expect(splitSentence(slowTool)).toMatch(/^Sampling the episodes .* is the largest part of a step here \(75%\)/);
    expect(splitSummary([record(0, 0.8, null)])).toBeNull();
  });

  it('shows shares that add up to 100%, by the largest remainder, where rounding each would show 101%', () => {
    // 237 : 656 : 107 ms is 23.7% · 65.6% · 10.7%: each rounded alone, "24% · 66% · 11%", 101%.
    const timed = [0, 1, 2].map((s) => ({
      ...record(s, 0.8, s ? 0.7 : null),
      timeSplit: { sampling: 237, update: 656, evaluation: 107 },
    }));
    const s = splitSummary(timed)!;
    expect(splitReadout(s)).toBe(
      'sampling 237 ms (24%) · policy update 656 ms (65%) · held-out evaluation 107 ms (11%)',
    );
    expect(splitSentence(s)).toMatch(
      /^Here the policy update is the largest part of a step \(65%\); sampling takes 24%\./,
    );
    // Thirds: 33.3% each, and the point left over goes to the first.
    const thirds = splitSummary(timed.map((r) => ({ ...r, timeSplit: { sampling: 1, update: 1, evaluation: 1 } })))!;
    expect(Object.values(thirds.percent)).toEqual([34, 33, 33]);
    for (let i = 0; i < 200; i++) {
      const ms = [i * 7 + 1, (i * 13) % 97, (i * 31) % 53];
      const r = splitSummary(
        timed.map((t) => ({ ...t, timeSplit: { sampling: ms[0]!, update: ms[1]!, evaluation: ms[2]! } })),
      )!;
      expect(r.percent.sampling + r.percent.update + r.percent.evaluation).toBe(100);
    }
  });

  it('draws one stacked bar per step under the curves, with the readout and the shared batch said in words', () => {
    const html = render({ run: run(1, false, 4) });
    const part = html.slice(html.indexOf('<div class="time-split"'));
    expect(part.match(/<g class="time-bar">/g)).toHaveLength(4);
    expect(part.match(/class="phase-(sampling|update|evaluation)" x="[\d.]+" width=/g)).toHaveLength(12); // the bars, not the legend's swatches
    expect(part).toContain(
      'aria-label="Time per GRPO step, step 4: sampling 200 ms, policy update 250 ms, held-out evaluation 50 ms"',
    );
    expect(part).toContain('Median of steps 1–4: <span data-testid="time-split-readout">sampling 200 ms (40%)');
    expect(part).toContain('30 greedy rows beside 64 sampled ones');
    expect(render({ run: null })).toContain(
      'Each GRPO step’s time, split into sampling, the policy update and the held-out evaluation, appears here',
    );
  });
});
