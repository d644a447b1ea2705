/**
 * The figure's own controls, above the curves: Run / Pause, Step, Reset and the plate's own
 * switch, the faulty calculator. Native controls with visible labels, each at least 24×24 CSS px
 * to tap. Buttons that cannot act right now say so with aria-disabled instead of `disabled`, so a
 * keyboard user's focus stays where it was.
 */
import { SettingSwitch, settingControl, type SettingProps } from '../SettingControl';
import { StepButton } from './StepButton';
import type { WorkerStatus } from '../types';

interface RunProps extends SettingProps {
  /** There is a run on the charts that Reset would clear. */
  canReset: boolean;
  onRun: () => void;
  onPause: () => void;
  onStep: () => void;
  onReset: () => void;
}

const RUN_LABEL: Partial<Record<WorkerStatus, string>> = {
  running: 'Pause',
  pausing: 'Pausing…',
  paused: 'Resume',
  stepping: 'Resume',
};

export function RunControls(p: RunProps) {
  const { status } = p;
  const usable = status !== 'loading' && status !== 'dead';
  const runInert = !usable || status === 'pausing';
  const resetInert = !usable || !p.canReset;
  const label = RUN_LABEL[status] ?? 'Run';
  return (
    <div className="controls" role="group" aria-label="Training controls">
      <div className="buttons">
        <button
          type="button"
          className="run"
          aria-disabled={runInert}
          onClick={() => runInert || (status === 'running' ? p.onPause() : p.onRun())}
        >
          <svg aria-hidden="true" viewBox="0 0 10 10" width="10" height="10">
            {status === 'running' || status === 'pausing' ? (
              <path d="M1.5,1h2.5v8h-2.5zM6,1h2.5v8h-2.5z" />
            ) : (
              <path d="M2,1L9,5L2,9Z" />
            )}
          </svg>
          {label}
        </button>
        <StepButton status={status} onStep={p.onStep} />
        <button type="button" aria-disabled={resetInert} onClick={() => resetInert || p.onReset()}>
          Reset
        </button>
      </div>
      <SettingSwitch {...settingControl(p, 'faulty')} className="faulty" />
    </div>
  );
}
