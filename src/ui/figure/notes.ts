/**
 * The figure's notes for settings other than the plate's: what to expect and why, with the
 * numbers our own reference runs measured (read from reference-runs.json, so the notes and the
 * README's table come from the same runs). Set apart from the plate's text; never replacing it.
 */
import { mean } from 'd3';
import type { RunConfig } from '../../protocol/messages';
import { pct } from '../format';
import { runsLike, type ReferenceRun, type ReferenceRuns } from './reference';

type Settings = Pick<RunConfig, 'faulty' | 'masking' | 'advantage' | 'temperature'>;

/** Means over the seeds of one configuration: held-out at the end, reward and copy rate over the last 5 steps. */
export interface ConfigFigures {
  seeds: number;
  heldOutEnd: number;
  rewardLast5: number;
  copyLast5: number | null;
}

const last5 = (xs: readonly number[]) => mean(xs.slice(-5)) ?? NaN;

export function configFigures(runs: readonly ReferenceRun[]): ConfigFigures | null {
  if (runs.length === 0) return null;
  const copies = runs.flatMap((r) => (r.copyRate ? [last5(r.copyRate)] : []));
  return {
    seeds: runs.length,
    heldOutEnd: mean(runs, (r) => r.heldOut.at(-1)!)!,
    rewardLast5: mean(runs, (r) => last5(r.meanReward))!,
    copyLast5: copies.length === runs.length ? mean(copies)! : null,
  };
}

const calculator = (s: Settings) => (s.faulty ? 'faulty' : 'reliable');

export function settingNotes(s: Settings, ref: ReferenceRuns | null): string[] {
  const notes: string[] = [];
  const like = (over: Partial<Settings>) => (ref ? configFigures(runsLike(ref, { ...s, ...over })) : null);
  const measured = (a: ConfigFigures | null, b: ConfigFigures | null, what: (f: ConfigFigures) => string) =>
    a && b ? ` In our reference runs (${a.seeds} seeds, ${calculator(s)} calculator) ${what(a)}, against ${what(b)} with the plate’s setting.` : '';

  if (!s.masking) {
    const off = like({ masking: false });
    const on = like({ masking: true });
    notes.push(
      'Observation masking is off: the loss also covers the calculator’s result characters, so the model is trained to predict the tool. ' +
        'It learns to recompute the sum instead of copying the result (B62+70|132|130|); watch the share of answers that copy the tool fall.' +
        measured(off, on, (f) => `held-out success ends at ${pct(f.heldOutEnd)}${f.copyLast5 === null ? '' : ` and ${pct(f.copyLast5)} of answers copy the tool`}`),
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
  if (s.temperature !== 1) {
    notes.push(
      s.temperature < 1
        ? `Sampling at temperature ${s.temperature}: the episodes are close to greedy, so the sampled reward runs high (93–98% over the last five steps in our runs with the reliable calculator, against 81% at 1), and the episodes of a group often agree, which gives GRPO fewer differences to learn from; greedy held-out success ends about where it does at 1. The reference band is drawn at temperature 1 only, so it is hidden here.`
        : `Sampling at temperature ${s.temperature}: more episodes go astray, so the sampled reward runs low (30–38% over the last five steps in our runs with the reliable calculator, against 81% at 1), while greedy held-out success ends as high as at 1 (90–97%) — sampled success is not what the agent does greedily. The reference band is drawn at temperature 1 only, so it is hidden here.`,
    );
  }
  return notes;
}
