/**
 * What the page knows about the training worker, folded from its events by a pure reducer
 * (useTrainer batches the events of one animation frame into one call). Steps are appended to
 * the live run; a run that ends, is reset or is replaced moves to `previous`, so the page can
 * draw it dimmed under the next one.
 */
import type { StepRecord } from '../rl/trainer';
import type { BackendName, ErrorKind, RunConfig, RunSummary, SkippedBackend, WorkerEvent, WorkerMemory } from './protocol';

export type TrainerStatus = 'loading' | 'ready' | 'running' | 'paused' | 'done' | 'error' | 'dead';

export interface ReadyInfo {
  backend: BackendName;
  reason: string;
  skipped: SkippedBackend[];
  loadMs: number;
  checkpointHeldOut: number | null;
}

/** How a run ended: finished all its steps, stopped by a reset or a new start, or by an error. */
export type RunEnd = 'done' | 'stopped' | 'error';

export interface RunView {
  runId: number;
  config: RunConfig;
  steps: StepRecord[];
  summary?: RunSummary;
  end?: RunEnd;
}

export interface TrainerError {
  /** 'worker': the worker itself died (a script error or crash); restartWorker() makes a new one. */
  kind: ErrorKind | 'worker';
  message: string;
}

export interface BackendSwitch {
  from: BackendName;
  to: BackendName;
  reason: string;
  step: number;
}

export interface TrainerState {
  status: TrainerStatus;
  /** Set once the worker is ready; `backend` follows any later switch. */
  ready: ReadyInfo | null;
  /** What the worker is loading, while status is 'loading'. */
  loading: string | null;
  run: RunView | null;
  /** Earlier runs with at least one step, oldest first (at most MAX_PREVIOUS). */
  previous: RunView[];
  error: TrainerError | null;
  lastSwitch: BackendSwitch | null;
  /** Training steps per second over the last few steps (the worker's own timings). */
  stepsPerSecond: number | null;
  memory: WorkerMemory | null;
}

export const MAX_PREVIOUS = 6;
const RATE_WINDOW = 5;

export const INITIAL_STATE: TrainerState = {
  status: 'loading', ready: null, loading: 'Starting the training worker…', run: null, previous: [],
  error: null, lastSwitch: null, stepsPerSecond: null, memory: null,
};

/** Folds a batch of events in order. */
export function reduceEvents(state: TrainerState, events: readonly WorkerEvent[]): TrainerState {
  let s = state;
  let steps: StepRecord[] = [];
  for (const e of events) {
    if (e.type === 'step' && e.runId === s.run?.runId) {
      steps.push(e.record); // appended to the run once, below or before the next other event
      s = { ...s, memory: e.memory };
      continue;
    }
    s = appendSteps(s, steps);
    steps = [];
    s = reduce(s, e);
  }
  return appendSteps(s, steps);
}

function appendSteps(s: TrainerState, steps: StepRecord[]): TrainerState {
  if (steps.length === 0 || !s.run) return s;
  const all = s.run.steps.concat(steps);
  return { ...s, run: { ...s.run, steps: all }, stepsPerSecond: rate(all) };
}

function rate(steps: StepRecord[]): number | null {
  const recent = steps.filter((r) => r.step > 0).slice(-RATE_WINDOW);
  const ms = recent.reduce((t, r) => t + r.timings.total, 0);
  return recent.length === 0 || ms <= 0 ? null : (1000 * recent.length) / ms;
}

function reduce(s: TrainerState, e: WorkerEvent): TrainerState {
  switch (e.type) {
    case 'loading':
      return { ...s, status: 'loading', loading: e.message };
    case 'ready': {
      const { backend, reason, skipped, loadMs, checkpointHeldOut } = e;
      return { ...s, status: 'ready', loading: null, ready: { backend, reason, skipped, loadMs, checkpointHeldOut } };
    }
    case 'started':
      return { ...retire(s, 'stopped'), status: 'running', error: null, stepsPerSecond: null, run: { runId: e.runId, config: e.config, steps: [] } };
    case 'step':
      return s; // a step of a run that was already replaced
    case 'paused':
      return e.runId === s.run?.runId ? { ...s, status: 'paused' } : s;
    case 'resumed':
      return e.runId === s.run?.runId ? { ...s, status: 'running' } : s;
    case 'reset':
      return { ...retire(s, 'stopped'), status: 'ready', error: null, run: null, stepsPerSecond: null };
    case 'done':
      return e.runId === s.run?.runId ? { ...s, status: 'done', run: { ...s.run, summary: e.summary, end: 'done' } } : s;
    case 'backend-switched': {
      const { from, to, reason, step } = e;
      return { ...s, ready: s.ready && { ...s.ready, backend: to }, lastSwitch: { from, to, reason, step } };
    }
    case 'error': {
      const run = s.run && e.runId === s.run.runId ? { ...s.run, end: 'error' as const } : s.run;
      return { ...s, status: 'error', loading: null, error: { kind: e.kind, message: e.message }, run };
    }
    default:
      return e satisfies never;
  }
}

/** Moves the live run (if it has steps) to `previous`. */
function retire(s: TrainerState, end: RunEnd): TrainerState {
  if (!s.run || s.run.steps.length === 0) return { ...s, run: null };
  const previous = [...s.previous, { ...s.run, end: s.run.end ?? end }].slice(-MAX_PREVIOUS);
  return { ...s, run: null, previous };
}

/** The worker died: keep what was streamed, say so. */
export function workerDied(s: TrainerState, message: string): TrainerState {
  return { ...s, status: 'dead', loading: null, error: { kind: 'worker', message } };
}
