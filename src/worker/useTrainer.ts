/**
 * The hook the page uses: it owns one training worker (created in an effect, terminated in the
 * cleanup, so StrictMode's double mount leaves exactly one), folds the worker's events into
 * state once per animation frame, and offers the commands as stable functions.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { CHECKPOINTS } from '../config';
import { isBackendName, type BackendName, type Command, type RunConfig, type WorkerEvent } from './protocol';
import { INITIAL_STATE, reduceEvents, workerDied, type TrainerState } from './trainer-state';

export type { BackendName, RunConfig, RunSummary, SkippedBackend, WorkerMemory } from './protocol';
export type { StepRecord } from '../rl/trainer';
export type { EpisodeView } from '../rl/view';
export type { BackendSwitch, ReadyInfo, RunEnd, RunView, TrainerError, TrainerState, TrainerStatus } from './trainer-state';

export interface UseTrainerOptions {
  /** The checkpoint folder; relative URLs resolve against the page. Default: the shipped agent. */
  checkpointUrl?: string;
  /** Forces a backend. Default: the page's `?backend=` parameter, else the worker's own choice. */
  backend?: BackendName;
}

export interface TrainerActions {
  /** A fresh run from the checkpoint's weights; a run in progress moves to `previous`. */
  start(config: RunConfig): void;
  pause(): void;
  resume(): void;
  /** Drops the run in progress; the next start begins at step 0 from the checkpoint. */
  reset(): void;
  /** A fresh run with this calculator, keeping the last run's seed and steps. */
  setFaulty(faulty: boolean): void;
  /** Replaces the worker (after it died, or to start over completely). */
  restartWorker(): void;
}

export type Trainer = TrainerState & TrainerActions;

/** The module worker; Vite bundles it and its .wasm files under the page's base path. */
export function createTrainerWorker(): Worker {
  return new Worker(new URL('./trainer.worker.ts', import.meta.url), { type: 'module', name: 'trainer' });
}

export function useTrainer(options: UseTrainerOptions = {}): Trainer {
  const { checkpointUrl, backend } = options;
  const [state, setState] = useState<TrainerState>(INITIAL_STATE);
  const [generation, setGeneration] = useState(0);
  const workerRef = useRef<Worker | null>(null);

  useEffect(() => {
    const worker = createTrainerWorker();
    workerRef.current = worker;
    setState(INITIAL_STATE);
    let pending: WorkerEvent[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      const batch = pending;
      pending = [];
      setState((s) => reduceEvents(s, batch));
    };
    worker.addEventListener('message', (e: MessageEvent<WorkerEvent>) => {
      pending.push(e.data);
      if (frame === 0) frame = requestAnimationFrame(flush);
    });
    worker.addEventListener('error', (e: ErrorEvent) => {
      e.preventDefault();
      worker.terminate();
      cancelAnimationFrame(frame);
      const batch = pending;
      pending = [];
      const why = e.message || 'it failed to load or crashed';
      setState((s) => workerDied(reduceEvents(s, batch), `The training worker stopped: ${why}.`));
    });
    worker.postMessage({
      type: 'init',
      checkpointUrl: new URL(checkpointUrl ?? `${CHECKPOINTS.agent}/`, document.baseURI).href,
      backend: backend ?? backendFromUrl(location.search),
    } satisfies Command);
    return () => {
      cancelAnimationFrame(frame);
      worker.terminate();
      if (workerRef.current === worker) workerRef.current = null;
    };
  }, [checkpointUrl, backend, generation]);

  const actions = useMemo<TrainerActions>(() => {
    const send = (cmd: Command) => workerRef.current?.postMessage(cmd);
    return {
      start: (config) => send({ type: 'start', config }),
      pause: () => send({ type: 'pause' }),
      resume: () => send({ type: 'resume' }),
      reset: () => send({ type: 'reset' }),
      setFaulty: (faulty) => send({ type: 'setFaulty', faulty }),
      restartWorker: () => setGeneration((g) => g + 1),
    };
  }, []);

  return useMemo(() => ({ ...state, ...actions }), [state, actions]);
}

/** `?backend=wasm` → 'wasm'; an unknown name is reported and ignored. */
export function backendFromUrl(search: string): BackendName | undefined {
  const asked = new URLSearchParams(search).get('backend');
  if (asked === null || asked === '') return undefined;
  if (isBackendName(asked)) return asked;
  console.warn(`?backend=${asked} is not one of webgpu, webgl, wasm, cpu; choosing automatically`);
  return undefined;
}
