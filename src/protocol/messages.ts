/**
 * The typed protocol between the page (main thread, src/client/) and the training worker
 * (worker thread, src/worker/). Every message carries a `type` tag; both sides switch on it
 * exhaustively. The worker posts only the new step; the page appends it. `runId` tells a live
 * run's messages from those of a run that was replaced.
 */
import type { RunSummary } from '../rl/summary';
import type { Sum } from '../env/sums';
import type { AskEpisode, StageView } from './episode-view';
import type { Stage } from '../pipeline/stages';
import type { RunConfig, Temperature } from '../pipeline/settings';
import type { BackendName, CalibrateMode, EngineReport, KernelsMode, RaceRecord } from './backends';
import type { WorkPhase } from '../model/parts';

/**
 * Where a checkpoint is: the absolute URL of its folder (manifest.json and the weights file it
 * names), or — as the library bundles them — its manifest (parsed JSON, checked in the worker)
 * and the absolute URL of its weights file.
 */
export type CheckpointSource = string | { manifest: unknown; weights: string };

export interface CheckpointUrls {
  agent: CheckpointSource;
  pretrained: CheckpointSource;
  /** The three-call agent (the two- and three-call worlds' own): fetched only when a run needs it. */
  agentThreeCalls: CheckpointSource;
}

/**
 * Absolute URLs of tfjs's WebAssembly binaries. They come from the page, whose bundler emitted
 * them: a bundler that builds a library's worker does not emit the files that worker references.
 */
export interface WasmFiles {
  'tfjs-backend-wasm.wasm': string;
  'tfjs-backend-wasm-simd.wasm': string;
  /** Never fetched (one thread only), but tfjs wants an entry for it. */
  'tfjs-backend-wasm-threaded-simd.wasm': string;
}
export const WASM_FILES: readonly (keyof WasmFiles)[] = [
  'tfjs-backend-wasm.wasm',
  'tfjs-backend-wasm-simd.wasm',
  'tfjs-backend-wasm-threaded-simd.wasm',
];

/**
 * Absolute URLs of tfjs's WASM, WebGL and WebGPU backends as modules of their own: the package's
 * prebuilt worker imports the one it tries from here (the page's worker bundles its own).
 */
export interface BackendModules {
  wasm: string;
  webgl: string;
  webgpu: string;
}
export const BACKEND_MODULES: readonly (keyof BackendModules)[] = ['wasm', 'webgl', 'webgpu'];

/** How a started run begins: training, pausing after its first record, or taking one step. */
export type RunBegin = 'running' | 'pausing' | 'stepping';
export const RUN_BEGINS: readonly RunBegin[] = ['running', 'pausing', 'stepping'];

/** Page → worker. */
export type Command =
  /**
   * Load tfjs, pick a backend and load the agent checkpoint; answered by `ready` or `error`.
   * backend: tried first (the page's `?backend=`). calibrate: how to choose otherwise (default
   * 'auto'); race: the page's stored outcome of an earlier race, unchecked (the worker checks it);
   * backends: where a prebuilt worker's backend modules are.
   */
  | {
      type: 'init';
      checkpoints: CheckpointUrls;
      wasm: WasmFiles;
      backends?: BackendModules;
      backend?: BackendName;
      calibrate?: CalibrateMode;
      race?: unknown;
    }
  /**
   * A fresh run of the whole pipeline `config.start` names; a run in progress is dropped. begin:
   * 'pausing', it pauses after its first record (a run started while held); 'stepping', it takes
   * one step and pauses (the reader's Step from Ready). One command, so no record of the run can
   * come before the worker knows how it begins.
   */
  | { type: 'start'; config: RunConfig; begin?: RunBegin }
  /**
   * The reader changed a setting: redo only what it affects. The same pipeline (samePipeline in
   * pipeline/settings.ts: the same seed, start, episode and agent's world) → a run still before
   * GRPO takes the new GRPO settings in place (`configured`), a run in or after GRPO restarts GRPO
   * from its own fine-tuned agent; anything else starts afresh.
   */
  | { type: 'configure'; config: RunConfig }
  | { type: 'pause' }
  | { type: 'resume' }
  /**
   * One more step, then pause (`stepping`, then `paused`): a record whose step is ≥ 1, after
   * the stage's starting point if that comes first. With no live run, send `start` first.
   */
  | { type: 'step' }
  /** Drop the run in progress; answered by `reset`. */
  | { type: 'reset' }
  /** The reader asks the current policy a sum, answered by `answer` at the next step boundary; the run is untouched. */
  | { type: 'ask'; question: AskQuestion };

/**
 * A sum the reader asks the agent. The policy answers it greedily with the reliable calculator,
 * and samples `AskQuestion`'s episodes at `temperature` with the calculator as `faulty` says.
 */
export interface AskQuestion {
  /** Chosen by the page, echoed in the answer. */
  id: number;
  sum: Sum;
  faulty: boolean;
  temperature: Temperature;
}

/** Where a sum stands in the committed split (src/env/sums.ts). */
export type SumKind = 'training' | 'held-out' | 'new';

/** Which weights answered: the shipped agent (no run has a model), or a run's after its latest record. */
export type AnsweredBy = { kind: 'shipped' } | { kind: 'run'; runId: number; stage: Stage; step: number };

export type AskAnswer =
  | {
      id: number;
      sum: Sum;
      kind: SumKind;
      /** One of the 30 demonstrations (a training sum). */
      demonstration: boolean;
      by: AnsweredBy;
      faulty: boolean;
      temperature: Temperature;
      /** Greedy, with the reliable calculator: what the agent does. */
      greedy: AskEpisode;
      /** Sampled at `temperature`, with the calculator as switched: what a GRPO group of this sum would hold. */
      samples: AskEpisode[];
    }
  | { id: number; sum: Sum; error: string };

export type ErrorKind = 'checkpoint' | 'backend' | 'non-finite-loss' | 'device-lost' | 'internal';

/** tf.memory() in the worker after a step: the tensor count stays flat once training is warm. */
export interface WorkerMemory {
  numTensors: number;
  numBytes: number;
}

export interface SkippedBackend {
  backend: BackendName;
  reason: string;
  /** A file of the plate's that did not load (its module or .wasm): the page says so in the open, it is the site's to fix. */
  file?: string;
}

/** Worker → page. */
export type WorkerEvent =
  /** Posted every second while the worker's event loop is free: the page's watchdog listens. */
  | { type: 'alive' }
  | { type: 'loading'; stage: 'backend' | 'checkpoint'; message: string }
  | {
      type: 'ready';
      backend: BackendName;
      /** Why this backend, in a sentence the page can show. */
      reason: string;
      skipped: SkippedBackend[];
      /** A race measured now, for the page to keep for the next visit (absent: nothing new to keep). */
      race?: RaceRecord;
      loadMs: number;
      /** Held-out success the agent checkpoint's card reports (the shipped checkpoint's own number). */
      checkpointHeldOut: number | null;
      /** The model's kernels as they run on the chosen backend ('fused' only on WASM). */
      kernels: KernelsMode;
      /** WebAssembly here, and JavaScript's speed where it trains. */
      engine: EngineReport;
    }
  /**
   * The engine warmed up while idle before the first run (worker/warm-up.ts): ms in all, each
   * slice's ms; complete: false when the first command cut it short.
   */
  | { type: 'warmed'; ms: number; slices: number[]; complete: boolean }
  /**
   * A run begins with `stages`. `from`: the run whose fine-tuned agent it starts GRPO from (its
   * earlier stages are that run's), or null. begin: 'pausing' when a pause travelled with the
   * start (the run pauses after its first record), 'stepping' when a Step did (it pauses after
   * its first step).
   */
  | {
      type: 'started';
      runId: number;
      config: RunConfig;
      stages: Stage[];
      from: number | null;
      begin: RunBegin;
    }
  /**
   * How far the record in flight (`step` of `stage`) has got, where a record takes over a second
   * (an engine without its JIT): posted between the record's parts (model/parts.ts), at most
   * every second. done, of, perStep: units of work (of: this record's, an estimate; perStep: a
   * usual step's); ms: since the record began. The page's watchdog hears the worker by it, and
   * the status says the time left from it.
   */
  | {
      type: 'progress';
      runId: number;
      stage: Stage;
      step: number;
      phase: WorkPhase;
      done: number;
      of: number;
      perStep: number;
      ms: number;
    }
  /** One record; config: the settings its stage was built with, which are what trained it. */
  | ({ type: 'step'; runId: number; config: RunConfig; memory: WorkerMemory } & StageView)
  /** New GRPO settings for a run that has not built its GRPO stage yet (taken at a step boundary). */
  | { type: 'configured'; runId: number; config: RunConfig }
  | { type: 'paused'; runId: number; stage: Stage; step: number }
  | { type: 'resumed'; runId: number; stage: Stage; step: number }
  /** A Step was taken from `step` of `stage`: one more step, then `paused`. */
  | { type: 'stepping'; runId: number; stage: Stage; step: number }
  | { type: 'reset' }
  | { type: 'answer'; answer: AskAnswer }
  /**
   * The run's last stage ended. summary: its GRPO readouts; sftHeldOut: held-out success of
   * the agent it fine-tuned (null if it fine-tuned none), agentDigest: that agent's weights digest;
   * stageSeconds: computing per stage.
   */
  | {
      type: 'done';
      runId: number;
      summary: RunSummary;
      sftHeldOut: number | null;
      agentDigest: string | null;
      stageSeconds: Partial<Record<Stage, number>>;
    }
  /**
   * The backend failed (e.g. a lost GPU device); a live run goes on from its last completed
   * `step` of `stage` on `to`, after replaying that stage's steps there (`replayed`).
   * runId 0: no run was live.
   */
  | {
      type: 'backend-switched';
      runId: number;
      from: BackendName;
      to: BackendName;
      /** What happened, in a sentence: "the GPU device was lost (…); steps 1–3 were replayed on WASM". */
      cause: string;
      /** Why `to`, as `ready.reason` says it for the first backend. */
      reason: string;
      skipped: SkippedBackend[];
      engine: EngineReport;
      stage: Stage | null;
      step: number;
      replayed: boolean;
    }
  | { type: 'error'; kind: ErrorKind; message: string; runId?: number };
