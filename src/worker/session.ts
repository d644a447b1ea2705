/**
 * The worker's state machine, free of `self` so Node tests can drive it: load a checkpoint on
 * a backend, run GRPO from the checkpoint's weights one step at a time, and report each event
 * through `post`. Commands change flags and wake the one driver loop; only that loop touches
 * the model, so a reset or restart never lands in the middle of a step.
 */
import * as tf from '@tensorflow/tfjs';
import { GRPO, type GrpoConfig } from '../config';
import { CheckpointError, decodeCheckpoint } from '../model/checkpoint';
import type { CharModel } from '../model/gpt';
import { summarise } from '../rl/summary';
import { GrpoTrainer, NonFiniteLossError, type StepRecord } from '../rl/trainer';
import type { BackendChoice, BackendRequest } from './backend';
import type { FetchedCheckpoint } from './checkpoint-fetch';
import type { BackendName, Command, RunConfig, WorkerEvent } from './protocol';

export interface SessionDeps {
  post(event: WorkerEvent): void;
  selectBackend(req: BackendRequest): Promise<BackendChoice>;
  fetchCheckpoint(folderUrl: string): Promise<FetchedCheckpoint>;
  /** Lets queued messages through between steps (a macrotask in the worker). */
  yieldToMessages?(): Promise<void>;
  grpo?: GrpoConfig;
}

interface Run {
  id: number;
  config: RunConfig;
  trainer: GrpoTrainer;
  records: StepRecord[];
  paused: boolean;
  /** `paused` was posted (the stream has actually stopped). */
  pauseAnnounced: boolean;
  /** Finished, or stopped by an error: nothing more to step. */
  over: boolean;
}

type Intent = { type: 'start'; config: RunConfig } | { type: 'reset' } | { type: 'switch'; reason: string };

class BackendLost extends Error {}

const macrotask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export class TrainerSession {
  private readonly grpo: GrpoConfig;
  private loaded: Promise<boolean> | null = null;
  private wasmBaseUrl: string | undefined;
  private checkpoint: FetchedCheckpoint | null = null;
  private model: CharModel | null = null;
  private backend: BackendName | null = null;
  private run: Run | null = null;
  private lastRunId = 0;
  /** The config of the latest start, kept after a reset for setFaulty. */
  private lastConfig: RunConfig | null = null;
  private intent: Intent | null = null;
  /** A start or reset that arrived while a backend switch was pending runs after it. */
  private afterSwitch: Intent | null = null;
  /** A pause that arrived while a start was pending: the new run pauses after its step 0. */
  private pauseNext = false;
  private driving = false;
  private wakeUp: (() => void) | null = null;
  /** Rejects the step in flight when the backend's device is lost. */
  private lost: { promise: Promise<never>; reject: (e: Error) => void } = deferredLoss();

  constructor(private readonly deps: SessionDeps) {
    this.grpo = deps.grpo ?? GRPO;
  }

  handle(cmd: Command): void {
    switch (cmd.type) {
      case 'init':
        if (this.loaded) return console.warn('trainer worker: a second init was ignored; start a new worker instead');
        this.loaded = this.load(cmd);
        return;
      case 'start':
        return this.want({ type: 'start', config: cmd.config });
      case 'setFaulty': {
        const last = this.intent?.type === 'start' ? this.intent.config : this.lastConfig;
        if (!last) return console.warn('trainer worker: setFaulty before any start was ignored');
        return this.want({ type: 'start', config: { ...last, faulty: cmd.faulty } });
      }
      case 'reset':
        return this.want({ type: 'reset' });
      case 'pause':
        if (this.intent?.type === 'start') this.pauseNext = true;
        else if (this.run && !this.run.over) this.run.paused = true;
        return;
      case 'resume':
        return this.resume();
      default:
        cmd satisfies never;
    }
  }

  /** The backend failed under us (a lost GPU device): continue the run on the next one. */
  backendLost(reason: string): void {
    this.lost.reject(new BackendLost(reason));
    this.want({ type: 'switch', reason });
  }

  private async load(cmd: Extract<Command, { type: 'init' }>): Promise<boolean> {
    const t0 = performance.now();
    const { post } = this.deps;
    try {
      post({ type: 'loading', stage: 'backend', message: cmd.backend ? `Starting the ${cmd.backend} backend…` : 'Choosing a backend…' });
      const choice = await this.deps.selectBackend({ forced: cmd.backend, wasmBaseUrl: cmd.wasmBaseUrl, onLost: (r) => this.backendLost(r) });
      this.backend = choice.backend;
      this.wasmBaseUrl = cmd.wasmBaseUrl;
      post({ type: 'loading', stage: 'checkpoint', message: 'Loading the agent checkpoint…' });
      this.checkpoint = await this.deps.fetchCheckpoint(cmd.checkpointUrl);
      this.freshModel();
      const heldOut = (this.checkpoint.manifest.card.success as { heldOut?: unknown } | undefined)?.heldOut;
      post({ type: 'ready', ...choice, loadMs: performance.now() - t0, checkpointHeldOut: typeof heldOut === 'number' ? heldOut : null });
      return true;
    } catch (e) {
      const kind = e instanceof CheckpointError ? 'checkpoint' : this.backend === null ? 'backend' : 'internal';
      const what = kind === 'checkpoint' ? 'The checkpoint could not be loaded' : kind === 'backend' ? 'No backend could start' : 'Loading failed';
      post({ type: 'error', kind, message: `${what}: ${(e as Error).message}` });
      return false;
    }
  }

  private want(intent: Intent): void {
    if (!this.loaded) return console.warn(`trainer worker: ${intent.type} before init was ignored`);
    // The latest wish wins, except that a backend switch is never dropped for a reset or start.
    if (this.intent?.type === 'switch' && intent.type !== 'switch') this.afterSwitch = intent;
    else this.intent = intent;
    this.wake();
    void this.drive();
  }

  private resume(): void {
    this.pauseNext = false;
    const run = this.run;
    if (!run?.paused) return;
    run.paused = false;
    if (run.pauseAnnounced) {
      run.pauseAnnounced = false;
      this.deps.post({ type: 'resumed', runId: run.id, step: run.records.length - 1 });
    }
    this.wake();
  }

  private async drive(): Promise<void> {
    if (this.driving) return;
    this.driving = true;
    try {
      if (!(await this.loaded)) return;
      for (let i = this.takeIntent(); i; i = this.takeIntent()) await this.apply(i);
    } catch (e) {
      this.stopRun(`Training stopped: ${(e as Error).message}`, 'internal');
    } finally {
      this.driving = false;
    }
  }

  private takeIntent(): Intent | null {
    const i = this.intent ?? this.afterSwitch;
    if (this.intent) this.intent = null;
    else this.afterSwitch = null;
    return i;
  }

  private async apply(intent: Intent): Promise<void> {
    switch (intent.type) {
      case 'reset':
        this.endRun();
        this.freshModel();
        this.deps.post({ type: 'reset' });
        return;
      case 'start': {
        this.endRun();
        this.freshModel();
        const run = this.newRun(intent.config);
        this.deps.post({ type: 'started', runId: run.id, config: run.config });
        return this.loop(run);
      }
      case 'switch':
        return this.switchBackend(intent.reason);
      default:
        intent satisfies never;
    }
  }

  private newRun(config: RunConfig): Run {
    const trainer = new GrpoTrainer({ model: this.model!, config: this.grpo, faulty: config.faulty, seed: config.seed });
    this.lastConfig = config;
    this.run = { id: ++this.lastRunId, config, trainer, records: [], paused: this.pauseNext, pauseAnnounced: false, over: false };
    this.pauseNext = false;
    return this.run;
  }

  /** Steps the run until it ends, an intent arrives or the backend fails. */
  private async loop(run: Run): Promise<void> {
    const { post } = this.deps;
    while (!this.intent && !run.over) {
      // A run always posts its step 0 (the starting point) before it honours a pause.
      if (run.paused && run.records.length > 0) {
        if (!run.pauseAnnounced) post({ type: 'paused', runId: run.id, step: run.records.length - 1 });
        run.pauseAnnounced = true;
        await new Promise<void>((resolve) => (this.wakeUp = resolve));
        continue;
      }
      const done = run.records.length - 1; // the last completed step
      if (done >= run.config.steps) {
        run.over = true;
        const seconds = run.records.reduce((s, r) => s + r.timings.total, 0) / 1000;
        post({ type: 'done', runId: run.id, summary: summarise(run.records, seconds) });
        return;
      }
      const pending = done < 0 ? run.trainer.initial() : run.trainer.next();
      let record: StepRecord;
      try {
        record = await Promise.race([pending, this.lost.promise]);
      } catch (e) {
        pending.catch(() => {}); // a step abandoned on a lost device may still reject later
        if (e instanceof BackendLost) return;
        if (e instanceof NonFiniteLossError) return this.stopRun(e.message.replace(/^the/, 'The'), 'non-finite-loss');
        throw e;
      }
      run.records.push(record);
      const { numTensors, numBytes } = tf.memory();
      post({ type: 'step', runId: run.id, record, memory: { numTensors, numBytes } });
      await (this.deps.yieldToMessages ?? macrotask)();
    }
  }

  /** Moves to the next backend; a live run replays its completed steps there and goes on. */
  private async switchBackend(reason: string): Promise<void> {
    const from = this.backend!;
    const run = this.run;
    this.lost = deferredLoss();
    let choice: BackendChoice;
    try {
      choice = await this.deps.selectBackend({ after: from, wasmBaseUrl: this.wasmBaseUrl, onLost: (r) => this.backendLost(r) });
    } catch (e) {
      if (run) run.over = true;
      this.deps.post({ type: 'error', kind: 'device-lost', message: `${reason}, and the run stopped: ${(e as Error).message}`, runId: run?.id });
      return;
    }
    this.backend = choice.backend;
    this.freshModel();
    const step = Math.max(run ? run.records.length - 1 : 0, 0);
    const live = run !== null && !run.over;
    if (live) {
      // Same seed, same calculator: replaying the completed steps rebuilds the weights, the
      // optimiser's moments and the random streams on the new backend.
      const trainer = new GrpoTrainer({ model: this.model!, config: this.grpo, faulty: run.config.faulty, seed: run.config.seed });
      for (let s = 1; s <= step && !this.intent; s++) await trainer.next();
      tryDispose(() => run.trainer.dispose());
      run.trainer = trainer;
    }
    const replayed = live && step > 0 ? `; steps 1–${step} were replayed there` : '';
    const message = `${reason}; continuing on ${choice.backend} (${choice.reason})${replayed}`;
    this.deps.post({ type: 'backend-switched', runId: run?.id ?? 0, from, to: choice.backend, reason: message, step });
    if (live) return this.loop(run);
  }

  private stopRun(message: string, kind: 'non-finite-loss' | 'internal'): void {
    const run = this.run;
    if (run) run.over = true;
    this.deps.post({ type: 'error', kind, message, runId: run?.id });
  }

  private endRun(): void {
    if (!this.run) return;
    tryDispose(() => this.run!.trainer.dispose());
    this.run = null;
  }

  /** The checkpoint's weights, decoded again: every run starts from exactly the same point. */
  private freshModel(): void {
    this.disposeModel();
    const { manifest, weights, where } = this.checkpoint!;
    this.model = decodeCheckpoint(manifest, weights, where);
  }

  private disposeModel(): void {
    if (!this.model) return;
    const params = Object.values(this.model.params);
    this.model = null;
    tryDispose(() => tf.dispose(params));
  }

  private wake(): void {
    this.wakeUp?.();
    this.wakeUp = null;
  }
}

/** Tensors on a lost device may refuse to be disposed; the engine forgets them anyway. */
function tryDispose(f: () => void): void {
  try {
    f();
  } catch (e) {
    console.warn('trainer worker: dispose failed', e);
  }
}

function deferredLoss(): { promise: Promise<never>; reject: (e: Error) => void } {
  let reject!: (e: Error) => void;
  const promise = new Promise<never>((_, r) => (reject = r));
  promise.catch(() => {}); // rejected only while a step may be racing it
  return { promise, reject };
}
