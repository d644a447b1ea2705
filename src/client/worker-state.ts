/**
 * What the page knows about the training worker, and what it asks of it: one pure reducer over
 * the worker's events, the page's own events (a worker that died) and the page's actions (Run,
 * Pause, a setting, the figure leaving the screen…), returning the next state and the commands
 * to post. useTrainingWorker folds every event as it comes and redraws at its own pace.
 *
 * Records are appended to the live run, per stage; a run that ends or is replaced moves to
 * `previous` without its episodes (only the live run's are ever shown), so the page can draw it
 * dimmed under the next one. Reset drops every run: what is cleared is not kept.
 *
 * The run trains when nobody holds it. Holders: the reader (Pause, Step), the figure out of view,
 * the tab hidden; each is released by its own event, and the worker hears one pause when the
 * first holder takes hold and one resume when the last lets go:
 *
 *   action            │ holders                         │ commands
 *   ──────────────────┼─────────────────────────────────┼──────────────────────────────────────
 *   hold h            │ + h                             │ pause, if nobody held before
 *   release h         │ − h                             │ resume, if nobody holds now
 *   pause (reader)    │ + reader                        │ as hold
 *   resume (reader)   │ none: whoever pressed Resume    │ resume, if anyone held
 *                     │  sees the figure, in a visible tab│
 *   run c             │ − reader                        │ start c; pause if anyone still holds
 *   single-step c     │ + reader                        │ paused: step; ready, done, error: start c, step
 *   configure c       │ − reader                        │ configure c; then pause if anyone holds,
 *                     │                                 │  else resume if the reader held;
 *                     │                                 │  nothing before a run (the setting waits for Run)
 *   clear (Reset)     │ − reader                        │ reset (the runs are dropped at once)
 *   ask q             │                                 │ ask q
 *
 * The worker's status follows its events, except that while anyone holds, a run the worker
 * still calls running is shown `pausing` (a pause is on its way to it), and while nobody holds,
 * one shown pausing is `running` (a resume is on its way). A pause or a resume sent twice does
 * no harm; a resume is never sent while someone holds, so a Step's pause is never undone.
 */
import type { EngineReport, KernelsMode } from '../protocol/backends';
import type {
  AskAnswer,
  AskQuestion,
  Command,
  ErrorKind,
  SkippedBackend,
  WorkerEvent,
  WorkerMemory,
} from '../protocol/messages';
import type { BackendName } from '../protocol/backends';
import { samePipeline, type RunConfig } from '../pipeline/settings';
import type { RunSummary } from '../rl/summary';
import type { Stage } from '../pipeline/stages';
import type { GrpoStepView } from '../protocol/episode-view';
import type { SupervisedRecord } from '../agent/stage';

/** stepping: a Step was taken; the run pauses after one more step. */
export type WorkerStatus =
  'loading' | 'ready' | 'running' | 'stepping' | 'pausing' | 'paused' | 'done' | 'error' | 'dead';

/** Who holds the run paused; the status names each. */
export type Holder = 'reader' | 'out of view' | 'tab hidden';
/** The order the status names them in. */
const HOLDERS: readonly Holder[] = ['reader', 'out of view', 'tab hidden'];

export interface BackendInfo {
  backend: BackendName;
  /** Why this backend, in a sentence. */
  reason: string;
  skipped: SkippedBackend[];
  /** WebAssembly here, and JavaScript's speed where it trains. */
  engine: EngineReport;
}

/** How far the live run's record in flight has got (the worker's `progress`, a record of over a second). */
export type InFlight = Omit<Extract<WorkerEvent, { type: 'progress' }>, 'type' | 'runId'>;

export interface ReadyInfo extends BackendInfo {
  loadMs: number;
  checkpointHeldOut: number | null;
  /** The model's kernels as they run (fused only on WASM). */
  kernels: KernelsMode;
  /** What the worker's idle warm-up did before the first run, once it has ended (worker/warm-up.ts). */
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
  /** GRPO steps, 0..steps (an earlier run's without their episodes). */
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
  /** Who holds the run paused now, in HOLDERS' order (empty: it may train). */
  holders: readonly Holder[];
  /** Set once the worker is ready: the first backend, how long loading took. */
  ready: ReadyInfo | null;
  /** The backend in use now and why: the first one, or the one after the latest switch. */
  backend: BackendInfo | null;
  /** What the worker is loading, while status is 'loading'. */
  loading: string | null;
  run: RunView | null;
  /** A start was posted and the worker has not begun it (nor dropped it for a reset) yet. */
  startSent: boolean;
  /** Earlier runs with at least one record, oldest first (at most MAX_PREVIOUS), without episodes. */
  previous: RunView[];
  error: WorkerError | null;
  lastSwitch: BackendSwitch | null;
  /** Steps per second of the current stage over its last few steps (the worker's own timings). */
  stepsPerSecond: number | null;
  /** The live run's next record, while it computes for over a second: how far it has got. */
  inFlight: InFlight | null;
  memory: WorkerMemory | null;
  /** The reader's asks: those sent and not answered yet (oldest first), and the latest answer. */
  asks: { waiting: AskQuestion[]; answer: AskAnswer | null };
}

/** What the page does; each becomes commands to the worker (the table above). */
export type PageAction =
  | { type: 'hold'; holder: Holder }
  | { type: 'release'; holder: Holder }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'run'; config: RunConfig }
  | { type: 'single-step'; config: RunConfig }
  | { type: 'configure'; config: RunConfig }
  /** Reset: the runs leave the charts now; the worker's `reset` follows. */
  | { type: 'clear' }
  | { type: 'ask'; question: AskQuestion };

/** What the page itself knows happened to the worker. */
type PageEvent = { type: 'died'; message: string };
export type ClientEvent = WorkerEvent | PageEvent | PageAction;

export interface Folded {
  state: WorkerState;
  commands: Command[];
}

/** @internal A test seam: exported for the test of how many runs are kept. */
export const MAX_PREVIOUS = 6;
const RATE_WINDOW = 5;

export const INITIAL_STATE: WorkerState = {
  status: 'loading',
  holders: [],
  ready: null,
  backend: null,
  loading: 'Starting the training worker…',
  run: null,
  startSent: false,
  previous: [],
  error: null,
  lastSwitch: null,
  stepsPerSecond: null,
  inFlight: null,
  memory: null,
  asks: { waiting: [], answer: null },
};

/** A fresh worker's state: what the page holds stays held (the figure is still out of view), the reader's hold goes with the runs. */
export const restarted = (s: WorkerState): WorkerState => ({
  ...INITIAL_STATE,
  holders: s.holders.filter((h) => h !== 'reader'),
});

/** Folds one event or action: the next state and the commands to post, in order. */
export function pageTransition(s: WorkerState, e: ClientEvent): Folded {
  const folded = isAction(e) ? act(s, e) : { state: foldEvent(s, e), commands: [] };
  return { ...folded, state: shownStatus(folded.state) };
}

/**
 * Folds a batch in order, keeping only the state (tests, and anything that only watches).
 * @internal A test seam: exported as the tests' fold of a batch.
 */
export function pageTransitions(state: WorkerState, events: readonly ClientEvent[]): WorkerState {
  return events.reduce((s, e) => pageTransition(s, e).state, state);
}

const ACTIONS: ReadonlySet<string> = new Set<PageAction['type']>([
  'hold',
  'release',
  'pause',
  'resume',
  'run',
  'single-step',
  'configure',
  'clear',
  'ask',
]);
const isAction = (e: ClientEvent): e is PageAction => ACTIONS.has(e.type);

const held = (s: WorkerState): boolean => s.holders.length > 0;
const PAUSE: Command = { type: 'pause' };
/** A run goes, or a start is on its way to the worker. */
const liveRun = (s: WorkerState): boolean => s.startSent || (s.run !== null && s.run.end === undefined);

const withHolders = (s: WorkerState, holders: readonly Holder[]): WorkerState => ({
  ...s,
  holders: HOLDERS.filter((h) => holders.includes(h)),
});
const without = (s: WorkerState, h: Holder): WorkerState =>
  withHolders(
    s,
    s.holders.filter((x) => x !== h),
  );

function act(s: WorkerState, a: PageAction): Folded {
  switch (a.type) {
    case 'hold':
      if (s.holders.includes(a.holder)) return { state: s, commands: [] };
      return { state: withHolders(s, [...s.holders, a.holder]), commands: held(s) ? [] : [{ type: 'pause' }] };
    case 'release': {
      if (!s.holders.includes(a.holder)) return { state: s, commands: [] };
      const next = without(s, a.holder);
      return { state: next, commands: held(next) ? [] : [{ type: 'resume' }] };
    }
    case 'pause':
      return act(s, { type: 'hold', holder: 'reader' });
    case 'resume':
      return { state: withHolders(s, []), commands: held(s) ? [{ type: 'resume' }] : [] };
    case 'run': {
      const next = { ...without(s, 'reader'), startSent: true };
      // After a finished run whose agent the new settings can keep, GRPO starts again from it
      // (the worker's configure), instead of training the agent anew.
      if (s.run?.end === 'done' && !s.startSent && samePipeline(s.run.config, a.config))
        return { state: next, commands: [{ type: 'configure', config: a.config }, ...(held(next) ? [PAUSE] : [])] };
      return {
        state: next,
        commands: [{ type: 'start', config: a.config, ...(held(next) && { begin: 'pausing' as const }) }],
      };
    }
    case 'single-step': {
      const next = withHolders(s, [...s.holders, 'reader']);
      if (s.status === 'paused') return { state: next, commands: [{ type: 'step' }] };
      if (s.status === 'ready' || s.status === 'done' || s.status === 'error')
        return {
          state: { ...next, startSent: true },
          commands: [{ type: 'start', config: a.config, begin: 'stepping' }],
        };
      return { state: s, commands: [] }; // a step is on its way, or nothing can step
    }
    case 'configure': {
      // With no run going — before one, after one finished or failed — a setting waits for Run or
      // Step (the page keeps it); during one, the worker redoes what it changes at the next step.
      if (!liveRun(s)) return { state: s, commands: [] };
      const next = without(s, 'reader');
      const then: Command[] = held(next) ? [{ type: 'pause' }] : held(s) ? [{ type: 'resume' }] : [];
      return { state: next, commands: [{ type: 'configure', config: a.config }, ...then] };
    }
    case 'clear':
      return {
        state: cleared(without(s, 'reader')),
        commands: [{ type: 'reset' }],
      };
    case 'ask':
      return {
        state: { ...s, asks: { ...s.asks, waiting: [...s.asks.waiting, a.question] } },
        commands: [{ type: 'ask', question: a.question }],
      };
    default:
      return a satisfies never;
  }
}

/** The worker, or its run, stopped with `error`: nothing is in flight, no start on its way. */
const stopped = (s: WorkerState, status: 'error' | 'dead', error: WorkerError): WorkerState => ({
  ...s,
  status,
  loading: null,
  error,
  startSent: false,
  inFlight: null,
});

/** No run, none before it, nothing in flight. */
const cleared = (s: WorkerState): WorkerState => ({
  ...s,
  run: null,
  startSent: false,
  previous: [],
  stepsPerSecond: null,
  inFlight: null,
});

/** Running and pausing as the holders make them: the worker hears about them in order. */
function shownStatus(s: WorkerState): WorkerState {
  if (s.status !== 'running' && s.status !== 'pausing') return s;
  const status = held(s) ? 'pausing' : 'running';
  return status === s.status ? s : { ...s, status };
}

function foldEvent(s: WorkerState, e: WorkerEvent | PageEvent): WorkerState {
  switch (e.type) {
    case 'alive':
      return s;
    case 'loading':
      return { ...s, status: 'loading', loading: e.message };
    case 'ready': {
      const { backend, reason, skipped, loadMs, checkpointHeldOut, kernels, engine } = e;
      return {
        ...s,
        status: 'ready',
        loading: null,
        ready: { backend, reason, skipped, engine, loadMs, checkpointHeldOut, kernels },
        backend: { backend, reason, skipped, engine },
      };
    }
    case 'warmed':
      return s.ready ? { ...s, ready: { ...s.ready, warmUp: { ms: e.ms, complete: e.complete } } } : s;
    case 'started':
      return started(s, e);
    case 'progress':
      return e.runId === s.run?.runId && ahead(s.run, e) ? { ...s, inFlight: inFlightOf(e) } : s;
    case 'step':
    case 'configured':
    case 'paused':
    case 'resumed':
    case 'stepping':
    case 'done':
      // An event of a run already replaced changes nothing.
      return e.runId === s.run?.runId ? foldRunEvent(s, e) : s;
    case 'answer':
      return { ...s, asks: { waiting: s.asks.waiting.filter((q) => q.id !== e.answer.id), answer: e.answer } };
    case 'reset':
      // Reset clears: the runs are dropped, not kept out of sight.
      return { ...cleared(s), status: 'ready', error: null };
    case 'backend-switched':
      return switched(s, e);
    case 'error': {
      const run = s.run && e.runId === s.run.runId ? { ...s.run, end: 'error' as const } : s.run;
      return { ...stopped(s, 'error', { kind: e.kind, message: e.message }), run };
    }
    case 'died':
      // No answer will come from a dead worker: the asks waiting for one are dropped.
      return { ...stopped(s, 'dead', { kind: 'worker', message: e.message }), asks: { ...s.asks, waiting: [] } };
    default:
      return e satisfies never;
  }
}

function switched(s: WorkerState, e: Extract<WorkerEvent, { type: 'backend-switched' }>): WorkerState {
  const { from, to, cause, reason, skipped, engine, stage, step } = e;
  return {
    ...s,
    backend: { backend: to, reason, skipped, engine },
    lastSwitch: { from, to, cause, stage, step },
    inFlight: null,
  };
}

/** A run begins: the one before it is retired; a pause that travelled with the start holds, so the run pauses after its first record. */
function started(s: WorkerState, e: Extract<WorkerEvent, { type: 'started' }>): WorkerState {
  const origin = e.from === null ? null : ([s.run, ...s.previous].find((r) => r?.runId === e.from) ?? null);
  const run: RunView = {
    runId: e.runId,
    config: e.config,
    stages: e.stages,
    from: e.from,
    stage: e.stages[0]!,
    pretrain: origin?.pretrain ?? [],
    sft: origin?.sft ?? [],
    steps: [],
  };
  return {
    ...retire(s, 'stopped'),
    status: e.begin,
    error: null,
    stepsPerSecond: null,
    inFlight: null,
    run,
    startSent: false,
  };
}

type RunEvent = Extract<WorkerEvent, { type: 'step' | 'configured' | 'paused' | 'resumed' | 'stepping' | 'done' }>;

/** An event of the live run. */
function foldRunEvent(s: WorkerState, e: RunEvent): WorkerState {
  const run = s.run!;
  switch (e.type) {
    case 'step':
      return withRecord(s, e);
    case 'configured':
      return { ...s, run: { ...run, config: e.config } };
    case 'paused':
      return { ...s, status: 'paused' };
    case 'resumed':
      return { ...s, status: 'running' };
    case 'stepping':
      return { ...s, status: 'stepping' };
    case 'done': {
      const { summary, sftHeldOut, agentDigest, stageSeconds } = e;
      return {
        ...s,
        status: 'done',
        inFlight: null,
        run: { ...run, summary, sftHeldOut, agentDigest, stageSeconds, end: 'done' },
      };
    }
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
  return { ...s, run: next, memory: e.memory, stepsPerSecond: rate(next), inFlight: null };
}

/**
 * The record a progress event speaks of is still to come: a later stage, or a later step of the
 * current one (a replay after a backend switch recomputes steps already drawn).
 */
function ahead(run: RunView, e: { stage: Stage; step: number }): boolean {
  const at = run.stages.indexOf(run.stage);
  const to = run.stages.indexOf(e.stage);
  const records = e.stage === 'grpo' ? run.steps : run[e.stage];
  return to > at || (to === at && e.step > (records.at(-1)?.step ?? -1));
}

const inFlightOf = ({ stage, step, phase, done, of, perStep, ms }: Extract<WorkerEvent, { type: 'progress' }>) => ({
  stage,
  step,
  phase,
  done,
  of,
  perStep,
  ms,
});

/** Steps per second over the current stage's last few steps (its step 0 only measures). */
function rate(run: RunView): number | null {
  const ms =
    run.stage === 'grpo'
      ? run.steps
          .filter((r) => r.step > 0)
          .slice(-RATE_WINDOW)
          .map((r) => r.timings.total)
      : run[run.stage]
          .filter((r) => r.step > 0)
          .slice(-RATE_WINDOW)
          .map((r) => r.ms);
  const total = ms.reduce((t, m) => t + m, 0);
  return ms.length === 0 || total <= 0 ? null : (1000 * ms.length) / total;
}

const NO_EPISODES: GrpoStepView['episodes'] = [];

/** An earlier run as the charts draw it: its figures, not its episodes (64 a step, the bulk of a run). */
const compact = (r: RunView): RunView => ({
  ...r,
  steps: r.steps.map((step) => (step.episodes.length === 0 ? step : { ...step, episodes: NO_EPISODES })),
});

/** Moves the live run (if it has records) to `previous`, compacted. */
function retire(s: WorkerState, end: RunEnd): WorkerState {
  const r = s.run;
  if (!r || r.steps.length + r.pretrain.length + r.sft.length === 0) return { ...s, run: null };
  const previous = [...s.previous, compact({ ...r, end: r.end ?? end })].slice(-MAX_PREVIOUS);
  return { ...s, run: null, previous };
}
