/**
 * What the page knows about the training worker, folded by a pure reducer from the worker's
 * events and the page's own (a pause it asked for, a worker that died). useTrainingWorker batches
 * the events of one animation frame into one call. Records are appended to the live run, per
 * stage; a run that ends, is reset or is replaced moves to `previous`, so the page can draw it
 * dimmed under the next one.
 */
import type {
  AskAnswer, AskQuestion, BackendName, ErrorKind, RunConfig, RunSummary, SkippedBackend, Stage, GrpoStepView, SupervisedRecord, WorkerEvent, WorkerMemory,
} from '../protocol/messages';

/** stepping: a Step was taken; the run pauses after one more step. */
export type WorkerStatus = 'loading' | 'ready' | 'running' | 'stepping' | 'pausing' | 'paused' | 'done' | 'error' | 'dead';

export interface BackendInfo {
  backend: BackendName;
  /** Why this backend, in a sentence. */
  reason: string;
  skipped: SkippedBackend[];
}

export interface ReadyInfo extends BackendInfo {
  loadMs: number;
  checkpointHeldOut: number | null;
  /** What the worker's idle warm-up did before the first run, once it has ended (rl/warm-up.ts). */
  warmUp?: { ms: number; complete: boolean };
}

/** How a run ended: finished all its stages, stopped by a reset or a new start, or by an error. */
type RunEnd = 'done' | 'stopped' | 'error';

export interface RunView {
  runId: number;
  config: RunConfig;
  stages: Stage[];
  /** The run whose fine-tuned agent this one's GRPO started from (its earlier stages are that run's). */
  from: number | null;
  /** The stage of the latest record (the first stage before any). */
  stage: Stage;
  pretrain: SupervisedRecord[];
  sft: SupervisedRecord[];
  /** GRPO steps, 0..steps. */
  steps: GrpoStepView[];
  summary?: RunSummary;
  sftHeldOut?: number | null;
  /** The weights digest of the agent this run fine-tuned. */
  agentDigest?: string | null;
  stageSeconds?: Partial<Record<Stage, number>>;
  end?: RunEnd;
}

interface WorkerError {
  /** 'worker': the worker itself stopped (a crash, or silence); restartWorker() makes a new one. */
  kind: ErrorKind | 'worker';
  message: string;
}

export interface BackendSwitch {
  from: BackendName;
  to: BackendName;
  /** What happened, e.g. "the GPU device was lost (…); continuing on WebAssembly". */
  cause: string;
  stage: Stage | null;
  step: number;
}

export interface WorkerState {
  status: WorkerStatus;
  /** Set once the worker is ready: the first backend, how long loading took. */
  ready: ReadyInfo | null;
  /** The backend in use now and why: the first one, or the one after the latest switch. */
  backend: BackendInfo | null;
  /** What the worker is loading, while status is 'loading'. */
  loading: string | null;
  run: RunView | null;
  /** Earlier runs with at least one record, oldest first (at most MAX_PREVIOUS). */
  previous: RunView[];
  error: WorkerError | null;
  lastSwitch: BackendSwitch | null;
  /** Steps per second of the current stage over its last few steps (the worker's own timings). */
  stepsPerSecond: number | null;
  memory: WorkerMemory | null;
  /** The reader's asks: those sent and not answered yet (oldest first), and the latest answer. */
  asks: { waiting: AskQuestion[]; answer: AskAnswer | null };
}

/** Events the page itself adds to the worker's. */
type PageEvent = { type: 'pause-requested' } | { type: 'died'; message: string } | { type: 'ask-sent'; question: AskQuestion };
export type ClientEvent = WorkerEvent | PageEvent;

export const MAX_PREVIOUS = 6;
const RATE_WINDOW = 5;

export const INITIAL_STATE: WorkerState = {
  status: 'loading', ready: null, backend: null, loading: 'Starting the training worker…', run: null, previous: [],
  error: null, lastSwitch: null, stepsPerSecond: null, memory: null, asks: { waiting: [], answer: null },
};

/** Folds a batch of events in order. */
export function reduceEvents(state: WorkerState, events: readonly ClientEvent[]): WorkerState {
  return events.reduce(reduce, state);
}

function reduce(s: WorkerState, e: ClientEvent): WorkerState {
  switch (e.type) {
    case 'alive':
      return s;
    case 'loading':
      return { ...s, status: 'loading', loading: e.message };
    case 'ready': {
      const { backend, reason, skipped, loadMs, checkpointHeldOut } = e;
      return { ...s, status: 'ready', loading: null, ready: { backend, reason, skipped, loadMs, checkpointHeldOut }, backend: { backend, reason, skipped } };
    }
    case 'warmed':
      return s.ready ? { ...s, ready: { ...s.ready, warmUp: { ms: e.ms, complete: e.complete } } } : s;
    case 'started': {
      const origin = e.from === null ? null : [s.run, ...s.previous].find((r) => r?.runId === e.from) ?? null;
      const run: RunView = {
        runId: e.runId, config: e.config, stages: e.stages, from: e.from, stage: e.stages[0]!,
        pretrain: origin?.pretrain ?? [], sft: origin?.sft ?? [], steps: [],
      };
      // A pause that travelled with the start holds: the run pauses after its first record.
      return { ...retire(s, 'stopped'), status: e.begin, error: null, stepsPerSecond: null, run };
    }
    case 'step':
      return e.runId === s.run?.runId ? withRecord(s, e) : s; // else a step of a run already replaced
    case 'configured':
      return e.runId === s.run?.runId ? { ...s, run: { ...s.run, config: e.config } } : s;
    case 'pause-requested':
      return s.status === 'running' || s.status === 'stepping' ? { ...s, status: 'pausing' } : s;
    case 'paused':
      return e.runId === s.run?.runId ? { ...s, status: 'paused' } : s;
    case 'resumed':
      return e.runId === s.run?.runId ? { ...s, status: 'running' } : s;
    case 'stepping':
      return e.runId === s.run?.runId ? { ...s, status: 'stepping' } : s;
    case 'ask-sent':
      return { ...s, asks: { ...s.asks, waiting: [...s.asks.waiting, e.question] } };
    case 'answer':
      return { ...s, asks: { waiting: s.asks.waiting.filter((q) => q.id !== e.answer.id), answer: e.answer } };
    case 'reset':
      return { ...retire(s, 'stopped'), status: 'ready', error: null, run: null, stepsPerSecond: null };
    case 'done': {
      if (e.runId !== s.run?.runId) return s;
      const { summary, sftHeldOut, agentDigest, stageSeconds } = e;
      return { ...s, status: 'done', run: { ...s.run, summary, sftHeldOut, agentDigest, stageSeconds, end: 'done' } };
    }
    case 'backend-switched': {
      const { from, to, cause, reason, skipped, stage, step } = e;
      return { ...s, backend: { backend: to, reason, skipped }, lastSwitch: { from, to, cause, stage, step } };
    }
    case 'error': {
      const run = s.run && e.runId === s.run.runId ? { ...s.run, end: 'error' as const } : s.run;
      return { ...s, status: 'error', loading: null, error: { kind: e.kind, message: e.message }, run };
    }
    case 'died':
      // No answer will come from a dead worker: the asks waiting for one are dropped.
      return { ...s, status: 'dead', loading: null, error: { kind: 'worker', message: e.message }, asks: { ...s.asks, waiting: [] } };
    default:
      return e satisfies never;
  }
}

function withRecord(s: WorkerState, e: Extract<WorkerEvent, { type: 'step' }>): WorkerState {
  const run = s.run!;
  // A GRPO record says what trained it: the run's labels follow it, not what was last asked for.
  const next: RunView =
    e.stage === 'grpo'
      ? { ...run, stage: e.stage, config: e.config, steps: [...run.steps, e.record] }
      : { ...run, stage: e.stage, [e.stage]: [...run[e.stage], e.record] };
  return { ...s, run: next, memory: e.memory, stepsPerSecond: rate(next) };
}

/** Steps per second over the current stage's last few steps (its step 0 only measures). */
function rate(run: RunView): number | null {
  const ms =
    run.stage === 'grpo'
      ? run.steps.filter((r) => r.step > 0).slice(-RATE_WINDOW).map((r) => r.timings.total)
      : run[run.stage].filter((r) => r.step > 0).slice(-RATE_WINDOW).map((r) => r.ms);
  const total = ms.reduce((t, m) => t + m, 0);
  return ms.length === 0 || total <= 0 ? null : (1000 * ms.length) / total;
}

/** Moves the live run (if it has records) to `previous`. */
function retire(s: WorkerState, end: RunEnd): WorkerState {
  const r = s.run;
  if (!r || r.steps.length + r.pretrain.length + r.sft.length === 0) return { ...s, run: null };
  const previous = [...s.previous, { ...r, end: r.end ?? end }].slice(-MAX_PREVIOUS);
  return { ...s, run: null, previous };
}
