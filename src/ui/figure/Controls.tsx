/**
 * Run / Pause, Reset, where a run starts from, and the faulty-calculator switch: native
 * controls with visible labels. Buttons that cannot act right now say so with aria-disabled
 * instead of `disabled`, so a keyboard user's focus stays where it was.
 */
import { useId } from 'react';
import { GRPO } from '../../config';
import type { StartFrom } from '../../protocol/messages';
import type { TrainerStatus } from './types';

export interface Settings {
  start: StartFrom;
  faulty: boolean;
}

interface Props {
  status: TrainerStatus;
  settings: Settings;
  /** There is a run on the charts that Reset would clear. */
  canReset: boolean;
  onRun: () => void;
  onPause: () => void;
  onReset: () => void;
  onSettings: (s: Settings) => void;
}

export const START_LABEL: Record<StartFrom, string> = {
  agent: 'the fine-tuned agent',
  pretrained: 'the worksheet model (fine-tune it here)',
  scratch: 'random weights (pre-train, then fine-tune)',
};

const RUN_LABEL: Partial<Record<TrainerStatus, string>> = { running: 'Pause', pausing: 'Pausing…', paused: 'Resume' };

export function Controls({ status, settings, canReset, onRun, onPause, onReset, onSettings }: Props) {
  const usable = status !== 'loading' && status !== 'dead';
  const runInert = !usable || status === 'pausing';
  const resetInert = !usable || !canReset;
  const label = RUN_LABEL[status] ?? 'Run';
  const group = useId(); // radio names must not collide with a second plate on the page
  return (
    <div className="controls" role="group" aria-label="Training controls">
      <div className="buttons">
        <button
          type="button"
          className="run"
          aria-disabled={runInert}
          onClick={() => runInert || (status === 'running' ? onPause() : onRun())}
        >
          <svg aria-hidden="true" viewBox="0 0 10 10" width="10" height="10">
            {status === 'running' || status === 'pausing' ? <path d="M1.5,1h2.5v8h-2.5zM6,1h2.5v8h-2.5z" /> : <path d="M2,1L9,5L2,9Z" />}
          </svg>
          {label}
        </button>
        <button type="button" aria-disabled={resetInert} onClick={() => resetInert || onReset()}>
          Reset
        </button>
      </div>
      <fieldset className="start-from" disabled={status === 'dead'}>
        <legend>Start from</legend>
        {(Object.keys(START_LABEL) as StartFrom[]).map((start) => (
          <label key={start}>
            <input type="radio" name={group} value={start} checked={settings.start === start} onChange={() => onSettings({ ...settings, start })} />
            {START_LABEL[start]}
          </label>
        ))}
      </fieldset>
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={settings.faulty}
          disabled={status === 'dead'}
          onChange={(e) => onSettings({ ...settings, faulty: e.currentTarget.checked })}
        />
        <span>
          Faulty calculator <span className="hint">(wrong {Math.round(GRPO.faultyRate * 100)}% of the time)</span>
        </span>
      </label>
    </div>
  );
}
