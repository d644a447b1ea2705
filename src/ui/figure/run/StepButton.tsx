/**
 * Step: one step of the current stage, then the run waits. From Ready (or a finished or stopped
 * run) it starts a run with it; from Paused it takes one more. While a run trains, or a step is
 * on its way, it cannot act and says so with aria-disabled (focus stays put).
 */
import { useId } from 'react';
import type { WorkerStatus } from '../types';

const CAN_STEP: readonly WorkerStatus[] = ['ready', 'paused', 'done', 'error'];

export function StepButton({ status, onStep }: { status: WorkerStatus; onStep: () => void }) {
  const hint = useId();
  const inert = !CAN_STEP.includes(status);
  return (
    <>
      <button
        type="button"
        className="step"
        aria-disabled={inert}
        aria-describedby={hint}
        onClick={() => inert || onStep()}
      >
        <svg aria-hidden="true" viewBox="0 0 10 10" width="10" height="10">
          <path d="M1,1L6,5L1,9Z M7,1h2v8h-2z" />
        </svg>
        {status === 'stepping' ? 'Stepping…' : 'Step'}
      </button>
      <span id={hint} className="visually-hidden">
        one step of the current stage, then pause
      </span>
    </>
  );
}
