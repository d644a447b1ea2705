/**
 * After a run has ended, the settings the reader changed since wait for Run or Step: the figure
 * says so beside the controls, naming only what changed — a flipped calculator after a two-call
 * run is "faulty", not "two calls, faulty" — and what the run on the charts was trained with, so
 * a flipped switch never looks ignored. Pure: from the run's config and the controls' settings.
 */
import {
  LABEL_ORDER,
  SETTINGS,
  settingsLabel,
  type RunSettings,
  type SettingKey,
  type SettingRow,
} from '../../../pipeline/settings';

/**
 * A changed row in words, by its new choice: as a run's label says it ("faulty", "μ = 4"), or —
 * where that says nothing, the plate's choice as a rule — by the row's label and the choice's
 * ("observation masking: on").
 */
function changedRow(key: SettingKey, settings: RunSettings): string {
  const row = SETTINGS[key] as SettingRow;
  const choice = settings[key];
  return row.runLabel(choice, settings) || `${row.label.toLowerCase()}: ${row.choiceLabels[String(choice)]}`;
}

/**
 * The settings that differ from the run's, in words: "faulty, masking off"; '' when none does.
 * @internal A test seam: exported for test/ui/settings-wait.test.ts.
 */
export const changedSettingsLabel = (run: RunSettings, settings: RunSettings): string =>
  LABEL_ORDER.filter((k) => run[k] !== settings[k])
    .map((k) => changedRow(k, settings))
    .join(', ');

/**
 * The sentence beside the controls once a run has ended and a setting differs from it; null
 * while a run goes on (a change restarts it at the next step), with no run, or with nothing changed.
 */
export function settingsWaitText(
  run: { config: RunSettings; ended: boolean } | null,
  settings: RunSettings,
): string | null {
  if (!run || !run.ended) return null;
  const changed = changedSettingsLabel(run.config, settings);
  if (changed === '') return null;
  const trained = settingsLabel(run.config);
  return `Your changed settings (${changed}) wait for Run or Step; the run on the charts was trained ${trained === 'reliable' ? 'as the plate sets it' : `with: ${trained}`}.`;
}
