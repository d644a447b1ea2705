/**
 * The figure's controls, in the order a reader needs them: Run / Pause, Step, Reset and the
 * plate's own switch, the faulty calculator, above the curves (RunControls); under them the
 * switches that break the plate's terms — masking, the advantage, the grader, the temperature —
 * grouped under a heading that says what they are for (TermSwitches); and where a run starts
 * (StartFrom). Native controls with visible labels, each at least 24×24 CSS px to tap. Buttons
 * that cannot act right now say so with aria-disabled instead of `disabled`, so a keyboard
 * user's focus stays where it was.
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

interface SettingProps {
  status: WorkerStatus;
  settings: Settings;
  onSettings: (s: Settings) => void;
}

interface RunProps extends SettingProps {
  /** There is a run on the charts that Reset would clear. */
  canReset: boolean;
  onRun: () => void;
  onPause: () => void;
  onStep: () => void;
  onReset: () => void;
}

const START_LABEL: Record<StartFrom, string> = {
  agent: 'the fine-tuned agent',
  pretrained: 'the worksheet model (fine-tune it here)',
  scratch: 'random weights (pre-train, then fine-tune)',
};

const ADVANTAGE_LABEL: Record<Advantage, string> = { group: 'group-relative', raw: 'raw reward' };

const RUN_LABEL: Partial<Record<WorkerStatus, string>> = {
  running: 'Pause',
  pausing: 'Pausing…',
  paused: 'Resume',
  stepping: 'Resume',
};

const patch = (p: SettingProps) => (over: Partial<Settings>) => p.onSettings({ ...p.settings, ...over });

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
      <label className="switch faulty">
        <input
          type="checkbox"
          role="switch"
          checked={p.settings.faulty}
          disabled={status === 'dead'}
          onChange={(e) => patch(p)({ faulty: e.currentTarget.checked })}
        />
        <span>
          Faulty calculator <span className="hint">(wrong {Math.round(GRPO.faultyRate * 100)}% of the time)</span>
        </span>
      </label>
    </div>
  );
}

/** The switches that undo one of the plate's terms each, to show what the term is for. */
export function TermSwitches(p: SettingProps) {
  const id = useId(); // names and ids must not collide with a second plate on the page
  const set = patch(p);
  const off = p.status === 'dead';
  return (
    <section className="term-switches" aria-labelledby={`${id}-head`}>
      <h4 id={`${id}-head`}>Break the plate’s terms</h4>
      <p className="term-switches-note">
        Each switch undoes one idea the plate names, to show what it is for. Changed during or after a run, GRPO starts
        again from that run’s agent with it; before a run, it waits for Run.
      </p>
      <div className="grpo-settings">
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={p.settings.masking}
            disabled={off}
            onChange={(e) => set({ masking: e.currentTarget.checked })}
          />
          <span>
            Observation masking <span className="hint">(train on the model’s characters only)</span>
          </span>
        </label>
        <Choice
          legend="Advantage"
          name={`${id}-advantage`}
          labels={ADVANTAGE_LABEL}
          value={p.settings.advantage}
          disabled={off}
          onChange={(advantage) => set({ advantage })}
        />
        <GraderControl value={p.settings.grader} disabled={off} onChange={(grader) => set({ grader })} />
        <label className="select">
          Temperature{' '}
          <select
            value={p.settings.temperature}
            disabled={off}
            onChange={(e) => set({ temperature: Number(e.currentTarget.value) as Temperature })}
          >
            {TEMPERATURES.map((t) => (
              <option key={t} value={t}>
                {t}
                {t === 1 ? ' (the plate’s)' : ''}
              </option>
            ))}
          </select>
        </label>
      </div>
    </section>
  );
}

/** Where a run starts: the shipped agent, or earlier in the pipeline (trained here). */
export function StartFrom(p: SettingProps) {
  const id = useId();
  return (
    <Choice
      legend="Start from"
      name={`${id}-start`}
      labels={START_LABEL}
      value={p.settings.start}
      disabled={p.status === 'dead'}
      onChange={(start) => patch(p)({ start })}
    />
  );
}

/** A radio group with a visible legend: one of `labels`' keys. */
function Choice<K extends string>(p: {
  legend: string;
  name: string;
  labels: Record<K, string>;
  value: K;
  disabled: boolean;
  onChange: (k: K) => void;
}) {
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
