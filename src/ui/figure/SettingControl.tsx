/**
 * A reader's setting as a native control, its label, hint and choices' words from the settings
 * table (pipeline/settings.ts): a switch for an on/off setting, radios or a select for a choice.
 */
import { useId } from 'react';
import { SETTINGS, type RunSettings, type SettingKey, type SettingRow } from '../../pipeline/settings';
import type { WorkerStatus } from './types';

interface Props<K extends SettingKey> {
  setting: K;
  value: RunSettings[K];
  disabled: boolean;
  onChange: (value: RunSettings[K]) => void;
}

/** What a part's controls are given: the trainer's status and the reader's settings. */
export interface SettingProps {
  status: WorkerStatus;
  settings: RunSettings;
  onSettings: (s: RunSettings) => void;
}

/** The control of setting `k`, wired to the reader's settings. */
export const settingControl = <K extends SettingKey>(p: SettingProps, k: K, disabled = p.status === 'dead') => ({
  setting: k,
  value: p.settings[k],
  disabled,
  onChange: (v: RunSettings[K]) => p.onSettings({ ...p.settings, [k]: v }),
});

const rowOf = (k: SettingKey) => SETTINGS[k] as SettingRow;

/** An on/off setting as a checkbox with role switch: checked is the row's `true`. */
export function SettingSwitch<K extends SettingKey>(p: Props<K> & { className?: string }) {
  const r = rowOf(p.setting);
  return (
    <label className={p.className ? `switch ${p.className}` : 'switch'}>
      <input
        type="checkbox"
        role="switch"
        checked={p.value === true}
        disabled={p.disabled}
        onChange={(e) => p.onChange(e.currentTarget.checked as RunSettings[K])}
      />
      <span>
        {r.label}
        {r.hint && <span className="hint"> ({r.hint})</span>}
      </span>
    </label>
  );
}

/** A choice as radios under a visible legend; `offered` leaves out the choices that make no sense now. */
export function SettingRadios<K extends SettingKey>(p: Props<K> & { offered?: (c: RunSettings[K]) => boolean }) {
  const r = rowOf(p.setting);
  const name = useId(); // names must not collide with a second plate on the page
  const offered = (r.choices as RunSettings[K][]).filter((c) => p.offered?.(c) ?? true);
  return (
    <fieldset className="choice" disabled={p.disabled}>
      <legend>{r.label}</legend>
      {offered.map((c) => (
        <label key={String(c)}>
          <input type="radio" name={name} checked={p.value === c} onChange={() => p.onChange(c as RunSettings[K])} />
          {r.choiceLabels[String(c)]}
        </label>
      ))}
    </fieldset>
  );
}

/** A choice as a select with a visible label, and its hint read with it. */
export function SettingSelect<K extends SettingKey>(p: Props<K> & { className?: string }) {
  const r = rowOf(p.setting);
  const hint = useId();
  const byText = new Map(r.choices.map((c) => [String(c), c]));
  return (
    <span className={p.className ? `select ${p.className}` : 'select'}>
      <label>
        {r.label}{' '}
        <select
          value={String(p.value)}
          disabled={p.disabled}
          aria-describedby={r.hint ? hint : undefined}
          onChange={(e) => p.onChange(byText.get(e.currentTarget.value) as RunSettings[K])}
        >
          {r.choices.map((c) => (
            <option key={String(c)} value={String(c)}>
              {r.choiceLabels[String(c)]}
            </option>
          ))}
        </select>
      </label>
      {r.hint && (
        <>
          {' '}
          <span className="hint" id={hint}>
            ({r.hint})
          </span>
        </>
      )}
    </span>
  );
}
