import { describe, expect, it } from 'vitest';
import { PLATE } from '../../src/plate/text';
import { chartLabel } from '../../src/ui/figure/chart/LineChart';
import {
  dashOf,
  earlierRuns,
  markers,
  platePhrase,
  plateRows,
  points,
  readout,
  readoutText,
  seriesOf,
  yourRun,
  heldOutGap,
  seedPhrase,
} from '../../src/ui/figure/curves';
import { PLATE_SETTINGS, settingsLabel, type RunConfig } from '../../src/pipeline/settings';
import { parseReferenceRuns, referenceBand } from '../../src/ui/figure/reference';
import { authorRuns } from '../../src/ui/figure/step/Transcript';
import { record, run } from './fixtures';
import { DEFAULT_SEED, REFERENCE_SEEDS } from '../../src/config';
import type { RunView } from '../../src/client/worker-state';

const ROWS = PLATE.numbers.rows;

describe('the figure model', () => {
  it('plots held-out from step 0 and mean reward from step 1', () => {
    const r = run(1, false, 3);
    expect(points(r.steps, 'heldOut').map((p) => p[0])).toEqual([0, 1, 2, 3]);
    expect(points(r.steps, 'reward').map((p) => p[0])).toEqual([1, 2, 3]);
  });

  it('labels each chart with its latest step and value, or, before a run, with what it does draw', () => {
    const live = seriesOf(run(1, false, 12), 'heldOut', false);
    expect(chartLabel('Held-out success', 40, live)).toBe('Held-out success, step 12 of 40: 80%');
    expect(chartLabel('Mean reward', 40, null)).toBe('Mean reward, no run on it yet');
    expect(chartLabel('Mean reward', 40, null, undefined, ['the reference runs’ band (precomputed)'])).toBe(
      'Mean reward, no run on it yet; drawn: the reference runs’ band (precomputed)',
    );
  });

  it('reads out held-out start and latest, and reward over the first and last five steps', () => {
    const steps = [record(0, 0.7, null), ...[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7].map((m, i) => record(i + 1, 0.8, m))];
    expect(readoutText(readout(steps, 'heldOut'))).toBe('70% → 80%');
    expect(readoutText(readout(steps, 'reward'))).toBe('30% → 50%');
    expect(readout(steps, 'reward').span).toBe('mean of steps 1–5 → 3–7');
    expect(readoutText(readout([], 'reward'))).toBe('— → —');
  });

  it('keeps the latest earlier run of each configuration, not the live one, not empty ones, at most three', () => {
    const live = run(5, true, 2);
    const kept = earlierRuns(live, [run(1, false, 40), run(2, false, 10), run(3, true, 0), run(4, true, 3), live]);
    expect(kept.map((r) => r.runId)).toEqual([2, 4]);
    const configs = [
      { masking: false },
      { advantage: 'raw' as const },
      { temperature: 1.5 as const },
      { faulty: true },
    ].map((over, i) => {
      const r = run(10 + i, false, 5);
      return { ...r, config: { ...r.config, ...over } };
    });
    expect(earlierRuns(null, configs).map((r) => r.runId)).toEqual([11, 12, 13]);
  });

  it('names a run’s configuration by what differs from the plate, and draws credit changes as dashes', () => {
    const r = run(1, true, 3);
    expect(settingsLabel(r.config)).toBe('faulty');
    expect(
      settingsLabel({ ...r.config, masking: false, advantage: 'raw', temperature: 1.5, start: 'pretrained' }),
    ).toBe('faulty, masking off, raw reward, temperature 1.5, fine-tuned here');
    expect(dashOf({ ...r.config, masking: false })).toBe('dashed');
    expect(dashOf({ ...r.config, advantage: 'raw' })).toBe('dotted');
  });

  it('states the plate’s numbers per calculator, the start shared by both', () => {
    expect(platePhrase(plateRows(ROWS, 'heldOut', false))).toBe('77% → 83%');
    expect(platePhrase(plateRows(ROWS, 'reward', false))).toBe('81% at the end');
    expect(platePhrase(plateRows(ROWS, 'reward', true))).toBe('capped near 50%');
    expect(markers(ROWS, 'heldOut', [false, true]).map((m) => m.label)).toEqual(['plate 77%', 'plate 83%']);
    expect(markers(ROWS, 'reward', [false, true]).map((m) => `${m.tone} ${m.label}`)).toEqual([
      'reliable plate 81%',
      'faulty plate 50%',
    ]);
  });

  it('fills “your run” from the latest run with the row’s calculator, marking a partial run', () => {
    const runs = [run(1, false, 40), run(2, true, 12)];
    expect(yourRun(ROWS[1]!, runs)).toBe('93% (28 of 30)');
    expect(yourRun(ROWS[4]!, runs)).toBe('80% (24 of 30) (step 12)');
    expect(yourRun(ROWS[3]!, [run(1, false, 40)])).toBe(
      '— (a run with the plate’s settings and the faulty calculator would fill this)',
    );
    expect(yourRun(ROWS[1]!, [run(3, false, 5, 5)])).toBe('77% (23 of 30) (step 5)'); // a finished 5-step run
  });

  it('reads “your run” only from runs made as the plate makes them: a grader bug or a credit switch fills no row', () => {
    const plate = run(1, false, 40);
    const as = (over: Partial<RunConfig>, id: number) => ({
      ...run(id, false, 40),
      config: { ...plate.config, ...over },
    });
    const crash = { ...as({ grader: 'crash-pass' }, 2), steps: plate.steps.map((r) => ({ ...r, heldOut: 0 })) };
    // The later crash-pass run does not replace the plate's run in the row (it would read 0%).
    expect(yourRun(ROWS[1]!, [plate, crash])).toBe('93% (28 of 30)');
    for (const over of [
      { grader: 'trusts-tool' },
      { masking: false },
      { advantage: 'raw' },
      { temperature: 1.5 },
      { updatesPerBatch: 4 },
      { start: 'scratch' },
    ] as Partial<RunConfig>[])
      expect(yourRun(ROWS[1]!, [as(over, 3)])).toBe(
        '— (a run with the plate’s settings and the reliable calculator would fill this)',
      );
    expect(yourRun(ROWS[0]!, [as({ masking: false }, 4)])).toBe('— (a run with the plate’s settings would fill this)');
  });
});

describe('the live run beside the plate', () => {
  const at = (r: RunView, correct: readonly [number, number]): RunView => ({
    ...r,
    steps: r.steps.map((s, i) =>
      i === 0
        ? { ...s, heldOutCorrect: correct[0], heldOut: correct[0] / 30 }
        : i === r.steps.length - 1
          ? { ...s, heldOutCorrect: correct[1], heldOut: correct[1] / 30 }
          : s,
    ),
  });

  it('says by how many sums of 30 its held-out success starts and ends away from the plate’s', () => {
    expect(heldOutGap(at(run(1, false, 40), [24, 27]), ROWS, [])).toBe(
      'Held-out success counts 30 sums, one sum is 3.3 points: it starts 1 sum of 30 above the plate’s 77%, and it ends 2 sums of 30 above the plate’s 83%.',
    );
    expect(heldOutGap(at(run(1, false, 40), [23, 25]), ROWS, [])).toBeNull(); // on the plate: nothing to explain
    expect(heldOutGap(at(run(1, false, 12), [23, 20]), ROWS, [])).toBeNull(); // not at step 40 yet, and starts on it
  });

  it('says why a faulty run ends at or above the reliable one, and nothing for a run the plate does not describe', () => {
    const reliable = at(run(1, false, 40), [23, 25]);
    const faulty = at(run(2, true, 40), [23, 27]);
    expect(heldOutGap(faulty, ROWS, [reliable])).toMatch(
      /ends 2 sums of 30 above the plate’s 83%\. This faulty run ends at or above the reliable one: held-out is graded with the reliable calculator, so the faulty one caps the reward the policy is paid, not what it learns\.$/,
    );
    const crash = { ...faulty, config: { ...faulty.config, grader: 'crash-pass' as const } };
    expect(heldOutGap(crash, ROWS, [reliable])).toBeNull();
  });

  it('names a run’s seed by where it stands in the reference band', () => {
    expect(seedPhrase(DEFAULT_SEED)).toBe(`seed ${DEFAULT_SEED} of the band’s five: the one nearest the plate`);
    const other = REFERENCE_SEEDS.find((s) => s !== DEFAULT_SEED)!;
    expect(seedPhrase(other)).toBe(`seed ${other}, one of the band’s five`);
    expect(seedPhrase(4817)).toBe('seed 4817, drawn (the band is seeds 1–5)');
  });
});

describe('reference runs', () => {
  const file = {
    note: 'test',
    steps: 2,
    runs: [
      { seed: 1, faulty: false, heldOut: [0.7, 0.8, 0.9], meanReward: [0.5, 0.6], summary: {} },
      { seed: 2, faulty: false, heldOut: [0.7, 0.6, 0.95], meanReward: [0.4, 0.7] },
      { seed: 1, faulty: true, heldOut: [0.7, 0.7, 0.7], meanReward: [0.3, 0.3] },
      {
        seed: 1,
        faulty: false,
        masking: false,
        advantage: 'raw',
        heldOut: [0.7, 0.2, 0.1],
        meanReward: [0.3, 0.1],
        copyRate: [0.5, 0.2],
        malformed: [0.4, 0.9],
      },
    ],
  };
  const plate = { ...PLATE_SETTINGS };

  it('band the spread of the runs made like the reader’s, per step', () => {
    const ref = parseReferenceRuns(file);
    expect(referenceBand(ref, plate, 'heldOut')).toEqual([
      { step: 0, lo: 0.7, hi: 0.7 },
      { step: 1, lo: 0.6, hi: 0.8 },
      { step: 2, lo: 0.9, hi: 0.95 },
    ]);
    expect(referenceBand(ref, plate, 'meanReward')[0]).toEqual({ step: 1, lo: 0.4, hi: 0.5 });
    expect(referenceBand(ref, { ...plate, masking: false, advantage: 'raw' }, 'malformed')).toEqual([
      { step: 1, lo: 0.4, hi: 0.4 },
      { step: 2, lo: 0.9, hi: 0.9 },
    ]);
  });

  it('draw no band for a configuration nobody ran: another temperature, or a curve a run lacks', () => {
    const ref = parseReferenceRuns(file);
    expect(referenceBand(ref, { ...plate, temperature: 1.5 }, 'heldOut')).toEqual([]);
    expect(referenceBand(ref, plate, 'copyRate')).toEqual([]);
  });

  it('are refused with a reason when a curve has the wrong length or range', () => {
    expect(() => parseReferenceRuns({ ...file, steps: 3 })).toThrow(/run 0 heldOut is not 4 fractions/);
    expect(() => parseReferenceRuns({ ...file, runs: [{ ...file.runs[0], meanReward: [2, 0] }] })).toThrow(
      /meanReward/,
    );
    expect(() => parseReferenceRuns(null)).toThrow(/not a JSON object/);
  });

  it('are refused with a reason when the scale model’s inputs are malformed: 9 paid counts, five times ≥ 0', () => {
    const run = file.runs[0]!;
    expect(() => parseReferenceRuns({ ...file, runs: [{ ...run, paidGroups: [1, 2, 3] }] })).toThrow(
      /run 0 paidGroups is not 9 counts/,
    );
    const stepTime = { samplingMs: 20, updateMs: 40, evaluationMs: 9, updateChars: 800, episodeChars: 51 };
    expect(() => parseReferenceRuns({ ...file, runs: [{ ...run, stepTime: { ...stepTime, updateMs: -1 } }] })).toThrow(
      /run 0 stepTime is not five numbers ≥ 0/,
    );
    expect(
      parseReferenceRuns({ ...file, runs: [{ ...run, paidGroups: [0, 0, 0, 0, 0, 0, 0, 0, 8], stepTime }] }).runs[0],
    ).toMatchObject({ paidGroups: [0, 0, 0, 0, 0, 0, 0, 0, 8], stepTime });
  });
});

describe('transcripts', () => {
  it('split into runs of one author each, and of characters the loss covered or not', () => {
    expect(authorRuns('^1+2=B1+2|3|3|', 'pppppmmmmmeemm', '00000111110011')).toEqual([
      { author: 'p', trained: false, text: '^1+2=' },
      { author: 'm', trained: true, text: 'B1+2|' },
      { author: 'e', trained: false, text: '3|' },
      { author: 'm', trained: true, text: '3|' },
    ]);
    expect(authorRuns('^1+2=B1+2|3|3|', 'pppppmmmmmeemm', '00000111111111')[2]).toEqual({
      author: 'e',
      trained: true,
      text: '3|',
    });
  });
});
