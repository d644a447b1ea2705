/**
 * The hook the page uses: it owns one training worker (created in an effect, terminated in the
 * cleanup, so StrictMode's double mount leaves exactly one), folds the worker's events into
 * state at most once per animation frame (records at most four times a second: redraw-pace.ts),
 * watches that the worker is still alive, and offers the commands as stable functions.
 */
import { startTransition, useEffect, useMemo, useRef, useState } from 'react';
import type { AskQuestion, BackendName, CalibrateMode, CheckpointUrls, Command, RunConfig, WasmFiles, WorkerEvent } from '../protocol/messages';
import { INITIAL_STATE, reduceEvents, type ClientEvent, type WorkerState } from './worker-state';
import { loadRace, saveRace } from './race-store';
import { RedrawPace } from './redraw-pace';
import { Watchdog } from './watchdog';

export interface UseTrainingWorkerOptions {
  /** Absolute URLs of the checkpoint folders. */
  checkpoints: CheckpointUrls;
  /** Tried first instead of the worker's own choice (the page's `?backend=`). */
  backend?: BackendName;
  /** How the worker chooses when nothing is forced (the page's `?calibrate=`; default 'auto'). */
  calibrate?: CalibrateMode;
  /** tfjs's .wasm binaries, as the page's bundler emitted them. */
  wasm: WasmFiles;
  /** The worker's module script, when the site builds it itself; otherwise the bundler's (createTrainingWorker). */
  workerUrl?: string;
}

interface WorkerCommands {
  /** A fresh run of the whole pipeline `config.start` names; a run in progress moves to `previous`. */
  start(config: RunConfig): void;
  /** The reader changed a setting: the worker redoes only what it affects. */
  configure(config: RunConfig): void;
  pause(): void;
  resume(): void;
  /** One more step of the live run, then pause (after start: its starting point and first step). */
  step(): void;
  /** Drops the run in progress; the next start begins from its first stage. */
  reset(): void;
  /** Asks the current policy a sum; the answer arrives in `asks.answer` (matched by `question.id`). */
  ask(question: AskQuestion): void;
  /** Replaces the worker (after it stopped, or to start over completely). */
  restartWorker(): void;
}

export type TrainingWorker = WorkerState & WorkerCommands;

/**
 * The module worker, in the form bundlers recognise: Vite bundles it for the page, and the library
 * build leaves this literal for the consumer's Vite or webpack to bundle (scripts/build/lib-plugins.ts).
 * `workerUrl`: a worker script the site built or hosts itself.
 */
export function createTrainingWorker(workerUrl?: string): Worker {
  if (workerUrl !== undefined) return new Worker(workerUrl, { type: 'module', name: 'training' });
  return new Worker(new URL('../worker/training.worker.ts', import.meta.url), { type: 'module', name: 'training' });
}

const stepMs = (e: WorkerEvent): number | undefined =>
  e.type !== 'step' ? undefined : e.stage === 'grpo' ? e.record.timings.total : e.record.ms;

export function useTrainingWorker(options: UseTrainingWorkerOptions): TrainingWorker {
  const { checkpoints, backend, calibrate, wasm, workerUrl } = options;
  const { agent, pretrained } = checkpoints;
  const [state, setState] = useState<WorkerState>(INITIAL_STATE);
  const [generation, setGeneration] = useState(0);
  const workerRef = useRef<Worker | null>(null);
  const pushRef = useRef<(e: ClientEvent) => void>(() => {});

  useEffect(() => {
    let worker: Worker;
    try {
      worker = createTrainingWorker(workerUrl);
    } catch (e) {
      // A worker URL the browser refuses outright (another origin, not a URL).
      setState({ ...INITIAL_STATE, status: 'dead', loading: null, error: { kind: 'worker', message: `The training worker could not start: ${(e as Error).message}` } });
      return;
    }
    workerRef.current = worker;
    setState(INITIAL_STATE);
    let dead = false;
    const pace = new RedrawPace((batch) => {
      const fold = () => setState((s) => reduceEvents(s, batch));
      // Records alone render as a transition, which React interrupts every few ms to let the
      // browser in: drawing a batch never holds the main thread as one long task. Anything else
      // (a pause, an answer, the end) renders at once; React applies the updates in order either way.
      if (batch.every((e) => e.type === 'step')) startTransition(fold);
      else fold();
    });
    const push = (e: ClientEvent) => pace.push(e);
    pushRef.current = push;
    const die = (why: string) => {
      if (dead) return;
      dead = true;
      worker.terminate();
      clearInterval(watch);
      if (workerRef.current === worker) workerRef.current = null;
      pace.push({ type: 'died', message: `The training worker stopped: ${why.replace(/\.+$/, '')}. The charts keep what it sent; Restart brings back a fresh trainer with your settings.` });
      pace.flush();
    };
    const watchdog = new Watchdog(performance.now());
    const watch = setInterval(() => {
      const silent = watchdog.overdue(performance.now());
      if (silent !== null) die(`it sent nothing for ${(silent / 1000).toFixed(0)} s`);
    }, 500);
    worker.addEventListener('message', (e: MessageEvent<WorkerEvent>) => {
      watchdog.heard(performance.now(), stepMs(e.data));
      if (e.data.type === 'ready' && e.data.race) saveRace(e.data.race);
      if (e.data.type !== 'alive') push(e.data);
    });
    worker.addEventListener('error', (e: ErrorEvent) => {
      e.preventDefault();
      die(e.message || 'it failed to load or crashed');
    });
    worker.addEventListener('messageerror', () => die('a message from it could not be read'));
    worker.postMessage({ type: 'init', checkpoints: { agent, pretrained }, backend, calibrate, race: loadRace(), wasm } satisfies Command);
    return () => {
      dead = true;
      clearInterval(watch);
      pace.cancel();
      worker.terminate();
      if (workerRef.current === worker) workerRef.current = null;
    };
  }, [agent, pretrained, backend, calibrate, wasm, workerUrl, generation]);

  const actions = useMemo<WorkerCommands>(() => {
    const send = (cmd: Command) => workerRef.current?.postMessage(cmd);
    return {
      start: (config) => send({ type: 'start', config }),
      configure: (config) => send({ type: 'configure', config }),
      pause: () => {
        // Said at once: the worker honours it after the step in flight, which can take seconds.
        pushRef.current({ type: 'pause-requested' });
        send({ type: 'pause' });
      },
      resume: () => send({ type: 'resume' }),
      step: () => send({ type: 'step' }),
      reset: () => send({ type: 'reset' }),
      ask: (question) => {
        if (!workerRef.current) return;
        pushRef.current({ type: 'ask-sent', question });
        send({ type: 'ask', question });
      },
      restartWorker: () => setGeneration((g) => g + 1),
    };
  }, []);

  return useMemo(() => ({ ...state, ...actions }), [state, actions]);
}
