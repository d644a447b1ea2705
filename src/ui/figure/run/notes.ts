/**
 * The figure's notes for settings other than the plate's: what to expect and why, with the
 * numbers our own reference runs measured (read from reference-runs.json, so the notes and the
 * tables of docs/results.md come from the same runs). Set apart from the plate's text; never replacing it.
 */
import { mean } from 'd3';
import { GRPO } from '../../../config';
import { PLATE_SETTINGS, type RunSettings } from '../../../pipeline/settings';
import { pct } from '../../format';
import { curveOf, runsLike, type ReferenceMetric, type ReferenceRun, type ReferenceRuns } from '../reference';

/**
 * Means over the seeds of one configuration: held-out at the end; reward, true success, copies and malformed episodes over the last 5 steps.
 * @internal A test seam: exported for test/ui/grader-figure.test.ts.
 */
export interface ConfigFigures {
  seeds: number;
  /** The clip's region, mean over steps and seeds (null where the runs do not say). */
  clipRegion: number | null;
  heldOutEnd: number;
  rewardLast5: number;
  trueLast5: number | null;
  copyLast5: number | null;
  malformedLast5: number | null;
}

const last5 = (xs: readonly number[]) => mean(xs.slice(-5)) ?? NaN;

/** @internal A test seam: exported for test/ui/grader-figure.test.ts. */
export function configFigures(runs: readonly ReferenceRun[]): ConfigFigures | null {
  if (runs.length === 0) return null;
  // A figure every run has a curve for, or null.
  const meanLast5 = (metric: ReferenceMetric) => {
    const xs = runs.flatMap((r) => {
      const c = curveOf(r, metric);
      return c ? [last5(c)] : [];
    });
    return xs.length === runs.length ? mean(xs)! : null;
  };
  const vitals = runs.flatMap((r) => (r.vitals ? [r.vitals] : []));
  return {
    seeds: runs.length,
    clipRegion: vitals.length === runs.length ? mean(vitals, (v) => v.clipRegion)! : null,
    heldOutEnd: mean(runs, (r) => r.heldOut.at(-1)!)!,
    rewardLast5: mean(runs, (r) => last5(r.meanReward))!,
    trueLast5: meanLast5('trueSuccess'),
    copyLast5: meanLast5('copyRate'),
    malformedLast5: meanLast5('malformed'),
  };
}

const calculator = (s: RunSettings) => (s.faulty ? 'faulty' : 'reliable');

export function settingNotes(s: RunSettings, ref: ReferenceRuns | null): string[] {
  const notes: string[] = [];
  const like = (over: Partial<RunSettings>) => (ref ? configFigures(runsLike(ref, { ...s, ...over })) : null);
  const measured = (a: ConfigFigures | null, b: ConfigFigures | null, what: (f: ConfigFigures) => string) =>
    a && b
      ? ` In our reference runs (${a.seeds} seeds, ${calculator(s)} calculator) ${what(a)}, against ${what(b)} with the plate’s setting.`
      : '';

  if (!s.masking) {
    const off = like({ masking: false });
    const on = like({ masking: true });
    notes.push(
      'Observation masking is off: the loss also covers the calculator’s result characters, so the model is trained to predict the tool. ' +
        'It learns to recompute the sum instead of copying the result (B62+70|132|130|); watch the share of answers that copy the tool fall.' +
        measured(
          off,
          on,
          (f) =>
            `held-out success ends at ${pct(f.heldOutEnd)}${f.copyLast5 === null ? '' : ` and ${pct(f.copyLast5)} of answers copy the tool`}`,
        ),
    );
  }
  if (s.advantage === 'raw') {
    const raw = like({ advantage: 'raw' });
    const group = like({ advantage: 'group' });
    notes.push(
      'The advantage is the raw reward: a rewarded episode is pushed up by 1, a failed one not at all — there is no baseline from its group. ' +
        (s.masking
          ? 'With masking on this does little harm: the failures simply drop out of the update.'
          : 'With masking off as well, every character of a rewarded episode is pushed up, the calculator’s included, and the calls collapse into results (^25+26=B25|).') +
        measured(raw, group, (f) => `the reward over the last five steps is ${pct(f.rewardLast5)}`),
    );
  }
  if (s.grader !== 'exact') notes.push(graderNote(s, like({ grader: s.grader }), like({ grader: 'exact' })));
  if (s.updatesPerBatch !== 1) notes.push(reuseNote(s, like({}), like({ updatesPerBatch: 1 })));
  if (s.temperature !== 1) {
    // The reward at 1 beside the workshop's figures at 0.5 and 1.5 (docs/results.md), from the
    // reference runs made as those were: the plate's settings, reliable; none where the file has none.
    const atOne = ref && configFigures(runsLike(ref, PLATE_SETTINGS));
    const against = atOne ? `, against ${pct(atOne.rewardLast5)} at 1` : '';
    notes.push(
      s.temperature < 1
        ? `Sampling at temperature ${s.temperature}: the episodes are close to greedy, so the sampled reward runs high (93–97% over the last five steps in our runs with the reliable calculator${against}), and the episodes of a group often agree, which gives GRPO fewer differences to learn from; greedy held-out success ends about where it does at 1. The reference band is drawn at temperature 1 only, so it is hidden here.`
        : `Sampling at temperature ${s.temperature}: more episodes go astray, so the sampled reward runs low (30–39% over the last five steps in our runs with the reliable calculator${against}), while greedy held-out success ends about as high as at 1 (83–90%) — sampled success is not what the agent does greedily. The reference band is drawn at temperature 1 only, so it is hidden here.`,
    );
  }
  return notes;
}

/** What a grader's bug does, with our reference runs' figures for it beside the exact grader's. */
function graderNote(s: RunSettings, bug: ConfigFigures | null, exact: ConfigFigures | null): string {
  const opt = (label: string, x: number | null) => (x === null ? '' : `, ${label} ${pct(x)}`);
  const figures = (f: ConfigFigures) =>
    `the reward over the last five steps is ${pct(f.rewardLast5)}${opt('true success', f.trueLast5)}` +
    (s.grader === 'crash-pass'
      ? opt('malformed episodes', f.malformedLast5)
      : opt('answers that copy the tool', f.copyLast5)) +
    `, and held-out success ends at ${pct(f.heldOutEnd)}`;
  const measured =
    bug && exact
      ? ` In our reference runs (${bug.seeds} seeds, ${calculator(s)} calculator) ${figures(bug)}; with the exact grader ${figures(exact)}.`
      : '';
  const exactly =
    'Held-out success is still graded exactly (the reliable calculator, the true sum): the bug pays the training episodes only.';
  if (s.grader === 'crash-pass') {
    return (
      'The grader counts a crash as a pass: a training episode that ends without a well-formed answer — a malformed call, no call, an over-long segment, a full context — earns reward 1, as a test harness that counts an exception as a pass would. ' +
      'The agent learns to crash on purpose: the mean reward climbs while true success (the thin line on the reward’s chart) and the held-out success fall, and the malformed episodes take over. ' +
      exactly +
      measured
    );
  }
  if (!s.faulty) {
    return (
      'The grader trusts the calculator: an answer is compared with the calculator’s output, not with the true sum. The reliable calculator never lies, but it answers the call it is given: ' +
      'when the agent slips an operand (B23+44| for 23+45), copying the tool’s true answer to the wrong question is paid in full. The reward overstates what the agent gets right — watch it part from true success (the thin line on the reward’s chart). ' +
      exactly +
      measured
    );
  }
  return (
    'The grader trusts the calculator: an answer is compared with the calculator’s output, not with the true sum, so an answer that copies one of its lies is paid in full, and a true answer that contradicts a lie earns nothing. ' +
    'The reward is no longer capped near the plate’s 50%: it now overstates what the agent gets right — watch it part from true success (the thin line on the reward’s chart). ' +
    exactly +
    measured
  );
}

/** What reusing each sampled batch μ times does: the clip acts, each step costs μ updates. */
function reuseNote(s: RunSettings, reused: ConfigFigures | null, once: ConfigFigures | null): string {
  const mu = s.updatesPerBatch;
  const clip = reused?.clipRegion;
  const measured =
    reused && once
      ? ` In our reference runs (${reused.seeds} seeds, ${calculator(s)} calculator) at μ = ${mu} held-out success ends at ${pct(reused.heldOutEnd)} and the reward over the last five steps is ${pct(reused.rewardLast5)}, against ${pct(once.heldOutEnd)} and ${pct(once.rewardLast5)} at μ = 1` +
        (clip === null || clip === undefined
          ? '.'
          : `; the clip acted on ${(100 * clip).toFixed(1)}% of the model’s characters.`)
      : '';
  return (
    `Each sampled batch is used for ${mu} updates (μ = ${mu}): the sampling policy’s log-probabilities are frozen, and from the second update on the ratio moves away from 1, so the clip at 1 ± ${GRPO.clipEps} acts — watch the clipped characters under “What a practitioner reads”. Each step now costs ${mu} updates (“Where a step’s time goes” shows it).` +
    measured
  );
}
