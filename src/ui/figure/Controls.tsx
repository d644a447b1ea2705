/**
 * The figure's controls, in the order a reader needs them: Run / Pause, Step, Reset and the
 * plate's own switch, the faulty calculator, above the curves (RunControls); under them the
 * switches that break the plate's terms — masking, the advantage, the grader, the temperature —
 * grouped under a heading that says what they are for (TermSwitches); and where a run starts
 * (StartChoice). Each setting's control takes its words from the settings table. Native controls with visible labels, each at least 24×24 CSS px to tap. Buttons
 * that cannot act right now say so with aria-disabled instead of `disabled`, so a keyboard
 * user's focus stays where it was.
 */
import { useId } from 'react';
import { DEFAULT_SEED } from '../../config';
import { seedPhrase } from './curves';
import type { RunSettings } from '../../pipeline/settings';
import { SettingRadios, SettingSelect, SettingSwitch } from './SettingControl';
import { StepButton } from './run/StepButton';
import type { WorkerStatus } from './types';

interface SettingProps {
  status: WorkerStatus;
  settings: RunSettings;
  onSettings: (s: RunSettings) => void;
}

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

/** The control of setting `k`, wired to the reader's settings. */
const control = <K extends keyof RunSettings>(p: SettingProps, k: K, disabled = p.status === 'dead') => ({
  setting: k,
  value: p.settings[k],
  disabled,
  onChange: (v: RunSettings[K]) => p.onSettings({ ...p.settings, [k]: v }),
});

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
      <SettingSwitch {...control(p, 'faulty')} className="faulty" />
    </div>
  );
}

/** The switches that undo one of the plate's terms each, to show what the term is for. */
export function TermSwitches(p: SettingProps) {
  const id = useId(); // ids must not collide with a second plate on the page
  return (
    <section className="term-switches" aria-labelledby={`${id}-head`}>
      <h4 id={`${id}-head`}>Break the plate’s terms</h4>
      <p className="term-switches-note">
        Each switch undoes one idea the plate names, to show what it is for. Changed during a run, GRPO starts again
        from that run’s agent with it at the next step; otherwise it waits for Run or Step.
      </p>
      <div className="grpo-settings">
        <SettingSwitch {...control(p, 'masking')} />
        <SettingRadios {...control(p, 'advantage')} />
        <SettingSelect {...control(p, 'grader')} className="grader" />
        <SettingSelect {...control(p, 'temperature')} />
      </div>
    </section>
  );
}

/**
 * The seed of the next run: the reference seed nearest the plate by default, or one the reader
 * draws (a seed draws every stage's random stream: which sums, which samples, which lies).
 */
export function SeedChoice(p: { status: WorkerStatus; seed: number; onSeed: (seed: number) => void }) {
  const off = p.status === 'dead';
  const draw = () => {
    let next = p.seed;
    while (next === p.seed) next = 1 + Math.floor(Math.random() * 9999);
    p.onSeed(next);
  };
  return (
    <p className="seed-choice">
      <span data-testid="seed">Next run: {seedPhrase(p.seed)}.</span>{' '}
      <button type="button" aria-disabled={off} onClick={() => off || draw()}>
        Draw another seed
      </button>
      {p.seed !== DEFAULT_SEED && (
        <>
          {' '}
          <button type="button" aria-disabled={off} onClick={() => off || p.onSeed(DEFAULT_SEED)}>
            Back to seed {DEFAULT_SEED}
          </button>
        </>
      )}
    </p>
  );
}

/** Where a run starts: the shipped agent, or earlier in the pipeline (trained here). */
export function StartChoice(p: SettingProps) {
  return <SettingRadios {...control(p, 'start')} />;
}
