/**
 * The typed protocol between the page and the training worker. Every message carries a `type`
 * tag; both sides switch on it exhaustively. The worker posts only the new step; the page
 * appends it. `runId` tells a live run's messages from those of a run that was reset.
 */
import type { RunSummary } from '../rl/summary';
import type { StepRecord } from '../rl/trainer';

export type { RunSummary };

export type BackendName = 'webgpu' | 'webgl' | 'wasm' | 'cpu';
export const BACKENDS: readonly BackendName[] = ['webgpu', 'webgl', 'wasm', 'cpu'];

export interface RunConfig {
  faulty: boolean;
  seed: number;
  steps: number;
}

/** Page → worker. */
export type Command =
  /**
   * Load tfjs, pick a backend and load the checkpoint; answered by `ready` or `error`.
   * checkpointUrl: an absolute URL of the checkpoint folder. wasmBaseUrl: a folder holding the
   * tfjs .wasm files, only to override the copies Vite bundled. backend: forces one.
   */
  | { type: 'init'; checkpointUrl: string; wasmBaseUrl?: string; backend?: BackendName }
  /** Start a fresh run from the checkpoint's weights (any run in progress is dropped). */
  | { type: 'start'; config: RunConfig }
  | { type: 'pause' }
  | { type: 'resume' }
  /** Drop the run in progress and restore the checkpoint's weights; answered by `reset`. */
  | { type: 'reset' }
  /** Start a fresh run with this calculator, keeping seed and steps. */
  | { type: 'setFaulty'; faulty: boolean };

export type ErrorKind = 'checkpoint' | 'backend' | 'non-finite-loss' | 'device-lost' | 'protocol' | 'internal';

/** tf.memory() in the worker after a step: the tensor count stays flat once training is warm. */
export interface WorkerMemory {
  numTensors: number;
  numBytes: number;
}

export interface SkippedBackend {
  backend: BackendName;
  reason: string;
}

/** Worker → page. */
export type WorkerEvent =
  | { type: 'loading'; stage: 'backend' | 'checkpoint'; message: string }
  | {
      type: 'ready';
      backend: BackendName;
      /** Why this backend, in a sentence the page can show. */
      reason: string;
      skipped: SkippedBackend[];
      loadMs: number;
      /** Held-out success the checkpoint's card reports (the shipped checkpoint's own number). */
      checkpointHeldOut: number | null;
    }
  | { type: 'started'; runId: number; config: RunConfig }
  | { type: 'step'; runId: number; record: StepRecord; memory: WorkerMemory }
  | { type: 'paused'; runId: number; step: number }
  | { type: 'resumed'; runId: number; step: number }
  | { type: 'reset' }
  | { type: 'done'; runId: number; summary: RunSummary }
  /**
   * The backend failed (e.g. a lost GPU device); the run goes on from its last completed `step`
   * on `to`, after replaying steps 1..step there. runId 0: no run was in progress.
   */
  | { type: 'backend-switched'; runId: number; from: BackendName; to: BackendName; reason: string; step: number }
  | { type: 'error'; kind: ErrorKind; message: string; runId?: number };

export function isCommand(x: unknown): x is Command {
  if (typeof x !== 'object' || x === null) return false;
  const m = x as { type?: unknown; config?: unknown; faulty?: unknown; checkpointUrl?: unknown; wasmBaseUrl?: unknown; backend?: unknown };
  switch (m.type) {
    case 'init':
      return (
        typeof m.checkpointUrl === 'string' &&
        (m.wasmBaseUrl === undefined || typeof m.wasmBaseUrl === 'string') &&
        (m.backend === undefined || isBackendName(m.backend))
      );
    case 'start':
      return isRunConfig(m.config);
    case 'setFaulty':
      return typeof m.faulty === 'boolean';
    case 'pause':
    case 'resume':
    case 'reset':
      return true;
    default:
      return false;
  }
}

export function isBackendName(x: unknown): x is BackendName {
  return (BACKENDS as readonly unknown[]).includes(x);
}

function isRunConfig(x: unknown): x is RunConfig {
  if (typeof x !== 'object' || x === null) return false;
  const c = x as Partial<RunConfig>;
  return typeof c.faulty === 'boolean' && Number.isInteger(c.seed) && Number.isInteger(c.steps) && c.steps! >= 1;
}
