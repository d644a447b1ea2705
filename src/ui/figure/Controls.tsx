/** Run / Pause, Reset and the faulty-calculator switch: native controls with visible labels. */
import { GRPO } from '../../config';
import type { TrainerStatus } from './types';

interface Props {
  status: TrainerStatus;
  faulty: boolean;
  onRun: () => void;
  onPause: () => void;
  onReset: () => void;
  onFaulty: (faulty: boolean) => void;
}

export function Controls({ status, faulty, onRun, onPause, onReset, onFaulty }: Props) {
  const running = status === 'running';
  const usable = status !== 'loading' && status !== 'dead';
  return (
    <div className="controls" role="group" aria-label="Training controls">
      <button type="button" className="run" onClick={running ? onPause : onRun} disabled={!usable}>
        <svg aria-hidden="true" viewBox="0 0 10 10" width="10" height="10">
          {running ? <path d="M1.5,1h2.5v8h-2.5zM6,1h2.5v8h-2.5z" /> : <path d="M2,1L9,5L2,9Z" />}
        </svg>
        {running ? 'Pause' : 'Run'}
      </button>
      <button type="button" onClick={onReset} disabled={!usable || status === 'ready'}>
        Reset
      </button>
      <label className="switch">
        <input type="checkbox" role="switch" checked={faulty} disabled={status === 'dead'} onChange={(e) => onFaulty(e.currentTarget.checked)} />
        <span>
          Faulty calculator <span className="hint">(wrong {Math.round(GRPO.faultyRate * 100)}% of the time)</span>
        </span>
      </label>
    </div>
  );
}
