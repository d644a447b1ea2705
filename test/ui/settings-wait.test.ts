// What the figure says beside the controls when the reader changes a setting after a run has
// ended (src/ui/figure/run/settings-wait.ts): only the settings that changed, and what trained.
import { describe, expect, it } from 'vitest';
import { PLATE_SETTINGS, type RunSettings } from '../../src/pipeline/settings';
import { changedSettingsLabel, settingsWaitText } from '../../src/ui/figure/run/settings-wait';

const TWO_CALLS: RunSettings = { ...PLATE_SETTINGS, episode: 'two-calls' };
const ended = (config: RunSettings) => ({ config, ended: true });

describe('the settings that wait for Run', () => {
  it('names only what changed: turning the faulty calculator on after a two-call run says “faulty”, not “two calls”', () => {
    expect(settingsWaitText(ended(TWO_CALLS), { ...TWO_CALLS, faulty: true })).toBe(
      'Your changed settings (faulty) wait for Run or Step; the run on the charts was trained with: two calls, reliable.',
    );
  });

  it('names a change back to the plate’s choice by its row, where a run’s label would say nothing', () => {
    const masked = { ...PLATE_SETTINGS, masking: false, updatesPerBatch: 4 as const };
    expect(changedSettingsLabel(masked, PLATE_SETTINGS)).toBe(
      'observation masking: on, updates per batch (μ): 1 (the plate’s)',
    );
    expect(changedSettingsLabel(PLATE_SETTINGS, masked)).toBe('masking off, μ = 4');
  });

  it('says the plate’s run was trained as the plate sets it', () => {
    expect(settingsWaitText(ended(PLATE_SETTINGS), { ...PLATE_SETTINGS, temperature: 1.5 })).toBe(
      'Your changed settings (temperature 1.5) wait for Run or Step; the run on the charts was trained as the plate sets it.',
    );
  });

  it('says nothing with no run, while a run goes on, or when nothing changed', () => {
    const faulty = { ...PLATE_SETTINGS, faulty: true };
    expect(settingsWaitText(null, faulty)).toBeNull();
    expect(settingsWaitText({ config: PLATE_SETTINGS, ended: false }, faulty)).toBeNull();
    expect(settingsWaitText(ended(faulty), faulty)).toBeNull();
  });
});
