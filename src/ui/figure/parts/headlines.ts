/**
 * Each part's headline figure for its summary line, once a run has one: what a reader would want
 * to know before opening it ("What a practitioner reads — frac_reward_zero_std 31% → 12%"). Every
 * figure is the run's own record's, as the part's charts draw it; null: nothing to say yet, and
 * the summary says what the part holds. Pure.
 */
import { PLATE_SETTINGS, settingsLabel, type RunSettings, type SettingKey } from '../../../pipeline/settings';
import { readout, readoutText, seedPhrase } from '../curves';
import { metricsOf, vitalReadout, VITALS } from '../practitioner/vital-signs';
import { splitReadout, splitSummary } from '../time/time-split';
import type { GrpoStepView } from '../../../protocol/episode-view';
import type { RunView } from '../types';
import { PART_OF_SETTING, type PartId } from './parts';

/** What the sampled episodes do: the copy rate and the malformed share, first steps → last. */
export function behaviourHeadline(run: RunView | null): string | null {
  if (!run || run.steps.length < 2) return null;
  return `answers that copy the tool ${readoutText(readout(run.steps, 'copy'))}, malformed episodes ${readoutText(readout(run.steps, 'malformed'))}`;
}

/** The settings whose controls live in `part`, in words where they differ from the plate's. */
export function settingsHeadline(part: PartId, s: RunSettings): string {
  const keys = (Object.keys(PART_OF_SETTING) as SettingKey[]).filter((k) => PART_OF_SETTING[k] === part);
  const differ = keys.filter((k) => s[k] !== PLATE_SETTINGS[k]);
  return differ.length === 0 ? 'as the plate sets them' : `set: ${settingsLabel(s, differ)}`;
}

/** Where a run starts: the start and the seed of the next run. */
export function startHeadline(s: RunSettings, seed: number): string {
  const start = settingsLabel(s, ['start']) || 'from the fine-tuned agent';
  return `${start}; next run: ${seedPhrase(seed)}`;
}

/**
 * One step taken apart: the step shown, and how many of its groups taught nothing, as the trainer
 * counted them (the record's zeroSpreadGroups: rl/figures.ts's flatGroupShares).
 */
export function stepHeadline(record: GrpoStepView | null, groupSize: number): string | null {
  if (!record || record.episodes.length === 0 || record.zeroSpreadGroups === null) return null;
  const groups = record.sampled / groupSize;
  const flat = Math.round(record.zeroSpreadGroups * groups);
  return `step ${record.step}: ${record.sampled} episodes in ${groups} group${groups === 1 ? '' : 's'}, ${flat} of which taught nothing`;
}

/** What a practitioner reads: the share of groups that teach nothing, first step → latest. */
export function practitionerHeadline(run: RunView | null): string | null {
  const metrics = run ? metricsOf(run.steps) : [];
  if (metrics.length === 0) return null;
  const v = VITALS[0]!;
  return `${v.name} ${vitalReadout(v, metrics)}`;
}

/** Where a step's time goes: the medians of the run's steps. */
export function timeHeadline(run: RunView | null): string | null {
  const s = run && splitSummary(run.steps);
  return s ? splitReadout(s) : null;
}
