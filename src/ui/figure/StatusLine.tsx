/** What the trainer is doing, in words: loading, the backend and why, the step, the speed, errors. */
import type { ReadyInfo, TrainerStatus } from './types';

interface Props {
  status: TrainerStatus;
  loadingMessage?: string;
  ready: ReadyInfo | null;
  step: number | null;
  steps: number;
  stepsPerSecond: number | null;
  error: string | null;
  notes: readonly string[];
  onRestart: () => void;
}

const WORD: Record<TrainerStatus, string> = {
  loading: 'Loading',
  ready: 'Ready',
  running: 'Training',
  paused: 'Paused',
  done: 'Finished',
  error: 'Error',
  dead: 'Stopped',
};

const BACKEND: Record<string, string> = { webgpu: 'WebGPU', webgl: 'WebGL', wasm: 'WebAssembly', cpu: 'plain JavaScript (CPU)' };

export function StatusLine({ status, loadingMessage, ready, step, steps, stepsPerSecond, error, notes, onRestart }: Props) {
  return (
    <div className="status">
      <p className="status-line">
        <span className={`status-word state-${status}`} role="status">
          {WORD[status]}
        </span>
        {status === 'loading' && (
          <>
            <progress aria-label="Loading TensorFlow.js and the checkpoint" />
            <span>{loadingMessage ?? 'Loading TensorFlow.js and the agent checkpoint…'}</span>
          </>
        )}
        {step !== null && (
          <span data-testid="status-step">
            step {step} of {steps}
          </span>
        )}
        {stepsPerSecond !== null && stepsPerSecond > 0 && <span>{stepsPerSecond.toFixed(2)} steps/s</span>}
      </p>
      {ready && (
        <p className="status-backend">
          Backend: <strong>{BACKEND[ready.backend] ?? ready.backend}</strong> — {ready.reason}
          {ready.loadMs > 0 && <> Loaded in {(ready.loadMs / 1000).toFixed(1)} s.</>}
        </p>
      )}
      {ready && ready.skipped.length > 0 && (
        <details className="status-skipped">
          <summary>Why not the other backends</summary>
          <ul>
            {ready.skipped.map((s) => (
              <li key={s.backend}>
                {BACKEND[s.backend] ?? s.backend}: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      {error && (
        <p className="status-error" role="alert">
          {error}{' '}
          {(status === 'dead' || status === 'error') && (
            <button type="button" onClick={onRestart}>
              Restart the trainer
            </button>
          )}
        </p>
      )}
      {notes.map((n) => (
        <p key={n} className="status-note">
          {n}
        </p>
      ))}
    </div>
  );
}
