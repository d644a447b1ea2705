/**
 * The hook the page uses: it owns one training worker (created in an effect, terminated in the
 * cleanup, so StrictMode's double mount leaves exactly one), folds the worker's events and the
 * page's actions through one reducer as they come (worker-state.ts: its commands are posted at
 * once), redraws at most once per animation frame (records at most four times a second:
 * redraw-pace.ts), watches that the worker is still alive, and offers the actions as stable
 * functions.
 */
import { startTransition, useEffect, useMemo, useRef, useState } from 'react';
import type {
  AskQuestion,
  BackendModules,
  CheckpointUrls,
  Command,
  WasmFiles,
  WorkerEvent,
} from '../protocol/messages';
import type { BackendName, CalibrateMode } from '../protocol/backends';
import type { RunConfig } from '../pipeline/settings';
import { FIX_WORKER, notServed } from '../protocol/files';
import {
  INITIAL_STATE,
  pageTransition,
  restarted,
  type ClientEvent,
  type Holder,
  type PageAction,
  type WorkerState,
} from './worker-state';
import { loadRace, saveRace } from './race-store';
import { RedrawPace } from './redraw-pace';
import { Watchdog, type Heard } from './watchdog';

/** How the training worker starts: a factory the page's bundler wrote, or a prebuilt module script (the package's). */
export type WorkerSource = { start: () => Worker } | { url: string };

export interface UseTrainingWorkerOptions {
  /** Absolute URLs of the checkpoint folders. */
  checkpoints: CheckpointUrls;
  /** Tried first instead of the worker's own choice (the page's `?backend=`). */
  backend?: BackendName;
  /** How the worker chooses when nothing is forced (the page's `?calibrate=`; default 'auto'). */
  calibrate?: CalibrateMode;
  /** tfjs's .wasm binaries, as the page's bundler emitted them. */
  wasm: WasmFiles;
  /** How the worker starts: the page's bundle, or the package's prebuilt script (src/ui/assets.ts). */
  worker: WorkerSource;
  /** The backends' modules, for a prebuilt worker. */
  backends?: BackendModules;
  /** The worker's module script, when the site hosts it itself: instead of `worker`. */
  workerUrl?: string;
  /** False until the figure is near the screen: no worker, no downloads (default true). */
  enabled?: boolean;
}

interface WorkerCommands {
  /** A fresh run of the whole pipeline `config.start` names; a run in progress moves to `previous`. */
  start(config: RunConfig): void;
  /** The reader changed a setting: the worker redoes only what it affects. */
  configure(config: RunConfig): void;
  /** The reader's Pause: the reader holds the run. */
  pause(): void;
  /** The reader's Resume: nobody holds the run any more. */
  resume(): void;
  /** One more step of the paused run, then pause; from Ready, done or an error, a run of `config` that takes one step. */
  step(config: RunConfig): void;
  /** Something other than the reader holds the run paused (the figure out of view, the tab hidden), or lets it go. */
  hold(holder: Holder): void;
  release(holder: Holder): void;
  /** Drops every run; the next start begins from its first stage. */
  reset(): void;
  /** Asks the current policy a sum; the answer arrives in `asks.answer` (matched by `question.id`). */
  ask(question: AskQuestion): void;
  /** Replaces the worker (after it stopped, or to start over completely). */
  restartWorker(): void;
}

export type TrainingWorker = WorkerState & WorkerCommands;

/** The worker's script URL where there is one (the page's bundler hides its own in the factory). */
const scriptOf = (source: WorkerSource, workerUrl?: string): { url: string; fix: string } | null =>
  workerUrl !== undefined
    ? { url: new URL(workerUrl, document.baseURI).href, fix: FIX_WORKER }
    : 'url' in source
      ? { url: source.url, fix: FIX_WORKER }
      : null;

/** `workerUrl`: a worker script the site hosts itself; else the source's own. */
export function createTrainingWorker(source: WorkerSource, workerUrl?: string): Worker {
  const script = scriptOf(source, workerUrl);
  return script
    ? new Worker(script.url, { type: 'module', name: 'training' })
    : (source as { start: () => Worker }).start();
}

/** Why the worker stopped before it said anything: its script did not load (named, with the fix), or it failed as it started. */
async function whyNoStart(script: { url: string; fix: string } | null, message: string): Promise<string> {
  if (script === null) return message || 'it failed to load or crashed';
  const why = await notServed(script.url);
  if (why !== null) return `its script ${script.url} did not load (${why}); ${script.fix}`;
  return `its script ${script.url} failed as it started${message ? ` (${message})` : ''}`;
}

/** A worker URL the browser refuses outright (another origin, not a URL): no worker, and why. */
const refused = (s: WorkerState, e: Error): WorkerState => ({
  ...restarted(s),
  status: 'dead',
  loading: null,
  error: { kind: 'worker', message: `The training worker could not start: ${e.message}` },
});

/** What an event tells the watchdog of the worker's pace: a timed step, a part of one, or only that it lives. */
const paceOf = (e: WorkerEvent): Heard =>
  e.type === 'progress'
    ? { part: true }
    : e.type === 'step'
      ? { stepMs: e.stage === 'grpo' ? e.record.timings.total : e.record.ms }
      : {};

/** The worker's first command: where the checkpoints and the backends' files are, and the backend asked for. */
const initCommand = (
  checkpoints: CheckpointUrls,
  o: Pick<UseTrainingWorkerOptions, 'backend' | 'calibrate' | 'wasm' | 'backends'>,
): Command => ({ type: 'init', checkpoints, ...o, race: loadRace() });

export function useTrainingWorker(options: UseTrainingWorkerOptions): TrainingWorker {
  const { checkpoints, backend, calibrate, wasm, worker: source, backends, workerUrl, enabled = true } = options;
  const { agent, pretrained, agentThreeCalls } = checkpoints;
  const [state, setState] = useState<WorkerState>(INITIAL_STATE);
  const [generation, setGeneration] = useState(0);
  /**
   * The state as folded so far: the one copy the reducer updates, ahead of what React has drawn
   * (`state` is this as of the last redraw). A new worker starts from it, keeping its holds.
   */
  const folded = useRef<WorkerState>(INITIAL_STATE);
  /** Between workers (and before the first) there is no one to command: holds are remembered, the rest dropped. */
  const [between] = useState(() => (e: ClientEvent) => {
    if (e.type === 'hold' || e.type === 'release') folded.current = pageTransition(folded.current, e).state;
  });
  /** Where actions go: the live worker's fold. */
  const dispatchRef = useRef(between);

  useEffect(() => {
    if (!enabled) return;
    let worker: Worker;
    try {
      worker = createTrainingWorker(source, workerUrl);
    } catch (e) {
      folded.current = refused(folded.current, e as Error);
      setState(folded.current);
      return;
    }
    folded.current = restarted(folded.current);
    setState(folded.current);
    const init = initCommand({ agent, pretrained, agentThreeCalls }, { backend, calibrate, wasm, backends });
    const wired = wire(worker, { folded, setState, init, script: scriptOf(source, workerUrl) });
    dispatchRef.current = wired.dispatch;
    return () => {
      wired.stop();
      dispatchRef.current = between;
    };
  }, [
    agent,
    pretrained,
    agentThreeCalls,
    backend,
    calibrate,
    wasm,
    source,
    backends,
    workerUrl,
    enabled,
    generation,
    between,
  ]);

  const actions = useMemo(
    () =>
      commands(
        (a) => dispatchRef.current(a),
        () => setGeneration((g) => g + 1),
      ),
    [],
  );
  return useMemo(() => ({ ...state, ...actions }), [state, actions]);
}

interface Wiring {
  folded: { current: WorkerState };
  setState: (s: WorkerState) => void;
  init: Command;
  /** The worker's script, to name when it dies before saying a word. */
  script: { url: string; fix: string } | null;
}

/**
 * A started worker, wired: its events folded with the page's actions (`dispatch`), the reducer's
 * commands posted, the redraws paced, its silence watched; `stop` ends it all and the worker.
 */
function wire(
  worker: Worker,
  { folded, setState, init, script }: Wiring,
): { dispatch: (e: ClientEvent) => void; stop: () => void } {
  let dead = false;
  let heard = false;
  const pace = new RedrawPace((batch) => {
    const shown = folded.current;
    // Records alone render as a transition, which React interrupts every few ms to let the
    // browser in: drawing a batch never holds the main thread as one long task. Anything else
    // (a pause, an answer, the end) renders at once.
    if (batch.every((e) => e.type === 'step')) startTransition(() => setState(shown));
    else setState(shown);
  });
  const dispatch = (e: ClientEvent) => {
    const { state: next, commands } = pageTransition(folded.current, e);
    folded.current = next;
    if (!dead) for (const c of commands) worker.postMessage(c);
    pace.push(e);
  };
  const stop = () => {
    dead = true;
    clearInterval(watch);
    pace.cancel();
    worker.terminate();
  };
  const die = (why: string) => {
    if (dead) return;
    stop();
    dispatch({
      type: 'died',
      message: `The training worker stopped: ${why.replace(/\.+$/, '')}. The charts keep what it sent; Restart brings back a fresh trainer with your settings.`,
    });
    pace.flush();
  };
  const watchdog = new Watchdog(performance.now());
  const watch = setInterval(() => {
    const silent = watchdog.overdue(performance.now());
    if (silent !== null) die(`it sent nothing for ${(silent / 1000).toFixed(0)} s`);
  }, 500);
  worker.addEventListener('message', (e: MessageEvent<WorkerEvent>) => {
    heard = true;
    watchdog.heard(performance.now(), paceOf(e.data));
    if (e.data.type === 'ready' && e.data.race) saveRace(e.data.race);
    if (e.data.type !== 'alive') dispatch(e.data);
  });
  worker.addEventListener('error', (e: ErrorEvent) => {
    e.preventDefault();
    if (heard) return die(e.message || 'it crashed');
    // Not a word from it yet: most likely its script did not load, which the site can fix.
    void whyNoStart(script, e.message).then(die);
  });
  worker.addEventListener('messageerror', () => die('a message from it could not be read'));
  worker.postMessage(init);
  return { dispatch, stop };
}

/** The hook's actions, each an event for the fold; a restart is a new worker. */
function commands(act: (a: PageAction) => void, restartWorker: () => void): WorkerCommands {
  return {
    start: (config) => act({ type: 'run', config }),
    configure: (config) => act({ type: 'configure', config }),
    pause: () => act({ type: 'pause' }),
    resume: () => act({ type: 'resume' }),
    step: (config) => act({ type: 'single-step', config }),
    hold: (holder) => act({ type: 'hold', holder }),
    release: (holder) => act({ type: 'release', holder }),
    reset: () => act({ type: 'clear' }),
    ask: (question) => act({ type: 'ask', question }),
    restartWorker,
  };
}
