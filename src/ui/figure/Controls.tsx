/**
 * Run / Pause, Reset, where a run starts from, and the GRPO settings — the calculator and its
 * grader, the two terms the reader can switch off, the sampling temperature: native controls with visible
 * labels. Buttons that cannot act right now say so with aria-disabled instead of `disabled`,
 * so a keyboard user's focus stays where it was.
 */
import { useId } from 'react';
import { GRPO } from '../../config';
import { type Advantage, type RunConfig, type StartFrom, type Temperature } from '../../protocol/messages';
import { TEMPERATURES } from '../../pipeline/stages';
import { GraderControl } from './GraderControl';
import { StepButton } from './StepButton';
import type { WorkerStatus } from './types';

/** What the reader chose: everything of a run's config but its seed and length. */
export type Settings = Omit<RunConfig, 'seed' | 'steps'>;

interface Props {
  status: WorkerStatus;
  settings: Settings;
  /** There is a run on the charts that Reset would clear. */
  canReset: boolean;
  onRun: () => void;
  onPause: () => void;
  onStep: () => void;
  onReset: () => void;
  onSettings: (s: Settings) => void;
}

const START_LABEL: Record<StartFrom, string> = {
  agent: 'the fine-tuned agent',
  pretrained: 'the worksheet model (fine-tune it here)',
  scratch: 'random weights (pre-train, then fine-tune)',
};

const ADVANTAGE_LABEL: Record<Advantage, string> = { group: 'group-relative', raw: 'raw reward' };

const RUN_LABEL: Partial<Record<WorkerStatus, string>> = { running: 'Pause', pausing: 'Pausing…', paused: 'Resume', stepping: 'Resume' };

export function Controls({ status, settings, canReset, onRun, onPause, onStep, onReset, onSettings }: Props) {
  const usable = status !== 'loading' && status !== 'dead';
  const runInert = !usable || status === 'pausing';
  const resetInert = !usable || !canReset;
  const label = RUN_LABEL[status] ?? 'Run';
  const id = useId(); // names and ids must not collide with a second plate on the page
  const set = (patch: Partial<Settings>) => onSettings({ ...settings, ...patch });
  return (
    <div className="controls" role="group" aria-label="Training controls">
      <div className="buttons">
        <button type="button" className="run" aria-disabled={runInert} onClick={() => runInert || (status === 'running' ? onPause() : onRun())}>
          <svg aria-hidden="true" viewBox="0 0 10 10" width="10" height="10">
            {status === 'running' || status === 'pausing' ? <path d="M1.5,1h2.5v8h-2.5zM6,1h2.5v8h-2.5z" /> : <path d="M2,1L9,5L2,9Z" />}
          </svg>
          {label}
        </button>
        <StepButton status={status} onStep={onStep} />
        <button type="button" aria-disabled={resetInert} onClick={() => resetInert || onReset()}>
          Reset
        </button>
      </div>
      <Choice legend="Start from" name={`${id}-start`} labels={START_LABEL} value={settings.start} disabled={status === 'dead'} onChange={(start) => set({ start })} />
      <div className="grpo-settings">
        <label className="switch faulty">
          <input type="checkbox" role="switch" checked={settings.faulty} disabled={status === 'dead'} onChange={(e) => set({ faulty: e.currentTarget.checked })} />
          <span>
            Faulty calculator <span className="hint">(wrong {Math.round(GRPO.faultyRate * 100)}% of the time)</span>
          </span>
        </label>
        <GraderControl value={settings.grader} disabled={status === 'dead'} onChange={(grader) => set({ grader })} />
        <label className="switch">
          <input type="checkbox" role="switch" checked={settings.masking} disabled={status === 'dead'} onChange={(e) => set({ masking: e.currentTarget.checked })} />
          <span>
            Observation masking <span className="hint">(train on the model’s characters only)</span>
          </span>
        </label>
        <Choice legend="Advantage" name={`${id}-advantage`} labels={ADVANTAGE_LABEL} value={settings.advantage} disabled={status === 'dead'} onChange={(advantage) => set({ advantage })} />
        <label className="select">
          Temperature{' '}
          <select value={settings.temperature} disabled={status === 'dead'} onChange={(e) => set({ temperature: Number(e.currentTarget.value) as Temperature })}>
            {TEMPERATURES.map((t) => (
              <option key={t} value={t}>
                {t}
                {t === 1 ? ' (the plate’s)' : ''}
              </option>
            ))}
          </select>
        </label>
      </div>
    </div>
  );
}

/** A radio group with a visible legend: one of `labels`' keys. */
function Choice<K extends string>(p: { legend: string; name: string; labels: Record<K, string>; value: K; disabled: boolean; onChange: (k: K) => void }) {
  return (
    <fieldset className="choice" disabled={p.disabled}>
      <legend>{p.legend}</legend>
      {(Object.keys(p.labels) as K[]).map((k) => (
        <label key={k}>
          <input type="radio" name={p.name} checked={p.value === k} onChange={() => p.onChange(k)} />
          {p.labels[k]}
        </label>
      ))}
    </fieldset>
  );
}
