// A WorkerSession in Node with the real model and checkpoints, for tests driven by the order of
// its own events (a command sent when a given event is posted), never by sleeps.
import * as tf from '@tensorflow/tfjs';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AGENT_RECIPE, CHECKPOINTS, GRPO, type AgentRecipe, type GrpoConfig } from '../../src/config';
import { type Command, type WorkerEvent } from '../../src/protocol/messages';
import type { BackendName } from '../../src/protocol/backends';
import type { RunConfig } from '../../src/pipeline/settings';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import type { BackendChoice, BackendRequest } from '../../src/worker/backend-race';
import { fromFloat16 } from '../../src/model/float16';
import { fetchCheckpoint } from '../../src/worker/checkpoint-fetch';
import { WorkerSession } from '../../src/worker/session';

export const folder = (path: string) => pathToFileURL(resolve(import.meta.dirname, '../../public', path)).href + '/';
export const CHECKPOINT_URLS = {
  agent: folder(CHECKPOINTS.agent),
  pretrained: folder(CHECKPOINTS.pretrained),
  agentThreeCalls: folder(CHECKPOINTS.agentThreeCalls),
};
// Node's wasm backend finds its binaries itself; the stand-in selectBackend ignores these.
const NODE_WASM = {
  'tfjs-backend-wasm.wasm': 'n/a',
  'tfjs-backend-wasm-simd.wasm': 'n/a',
  'tfjs-backend-wasm-threaded-simd.wasm': 'n/a',
};
const SMALL: GrpoConfig = { ...GRPO, sumsPerStep: 2, episodesPerSum: 4 };
const TOY: AgentRecipe = {
  ...AGENT_RECIPE,
  pretrain: { ...AGENT_RECIPE.pretrain, steps: 2, batch: 4 },
  sft: { ...AGENT_RECIPE.sft, steps: 2 },
};

export type Event<T extends WorkerEvent['type']> = Extract<WorkerEvent, { type: T }>;

export interface Options {
  /** Called as each event is posted, with the session: the place to send a command "now". */
  onEvent?: (e: WorkerEvent, s: WorkerSession) => void;
  /** Called when the session asks for a backend (after a loss: `req.after` is set). */
  onSelect?: (req: BackendRequest, s: WorkerSession) => void;
  /**
   * Changes the weights' values on the way in: the checkpoint is then served as float32 (which
   * the format reads), so a value beyond float16's 65504 can be set.
   */
  edit?: (floats: Float32Array) => void;
  urls?: typeof CHECKPOINT_URLS;
  /** Warm the engine while idle, as the worker does (off unless a test asks). */
  warmUp?: boolean;
  /** The backend chosen first (default wasm; cpu cuts a step into parts, model/parts.ts). */
  backend?: BackendName;
  /** Passed to the session: how long a record computes before it says how far it got. */
  progressEveryMs?: number;
}

export function session(opts: Options = {}) {
  const events: WorkerEvent[] = [];
  let waiters: (() => void)[] = [];
  let lose: (cause: string) => void = () => {};
  /** Every file the session fetched, in order. */
  const fetched: string[] = [];
  const fileFetch: typeof fetch = async (url) => {
    fetched.push(String(url));
    const bytes = readFileSync(new URL(String(url)));
    if (!opts.edit) return new Response(bytes);
    if (String(url).endsWith('manifest.json')) {
      const manifest = JSON.parse(bytes.toString('utf8')) as { weights: { dtype: string }[] };
      for (const w of manifest.weights) w.dtype = 'float32';
      return new Response(JSON.stringify(manifest));
    }
    const floats = fromFloat16(
      new Uint16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)),
    );
    opts.edit(floats);
    return new Response(floats.buffer);
  };
  const s: WorkerSession = new WorkerSession({
    post: (e) => {
      events.push(e);
      opts.onEvent?.(e, s);
      const w = waiters;
      waiters = [];
      w.forEach((f) => f());
    },
    // wasm first; after a loss, the next in the order (cpu).
    selectBackend: async (req): Promise<BackendChoice> => {
      opts.onSelect?.(req, s);
      const backend: BackendName = req.after === 'wasm' ? 'cpu' : (opts.backend ?? 'wasm');
      if (!(await tf.setBackend(backend))) throw new Error(`no ${backend}`);
      lose = req.onLost!;
      return { backend, reason: `${backend} in Node`, skipped: [], ranking: ['wasm', 'cpu'] };
    },
    fetchCheckpoint: (url) => fetchCheckpoint(url, fileFetch),
    grpo: SMALL,
    recipe: TOY,
    warmUp: opts.warmUp,
    progressEveryMs: opts.progressEveryMs,
  });
  /** Resolves once an event satisfies `test` (checked as each event is posted). */
  const until = (test: (events: WorkerEvent[]) => boolean) =>
    new Promise<void>((ok) => {
      const check = () => (test(events) ? ok() : waiters.push(check));
      check();
    });
  const of = <T extends WorkerEvent['type']>(type: T) => events.filter((e): e is Event<T> => e.type === type);
  const types = () => events.map((e) => e.type);
  const steps = (runId = 1) =>
    of('step')
      .filter((e) => e.runId === runId)
      .map((e) => `${e.stage} ${e.record.step}`);
  const init = (more: Partial<Extract<Command, { type: 'init' }>> = {}) =>
    s.handle({ type: 'init', checkpoints: opts.urls ?? CHECKPOINT_URLS, wasm: NODE_WASM, ...more });
  return { s, events, fetched, until, of, types, steps, init, lose: (cause: string) => lose(cause) };
}

export const has =
  (type: WorkerEvent['type'], n = 1) =>
  (events: WorkerEvent[]) =>
    events.filter((e) => e.type === type).length >= n;
export const config = (over: Partial<RunConfig> = {}): RunConfig => ({
  seed: 1,
  steps: 2,
  ...PLATE_SETTINGS,
  ...over,
});
export const isStep = (e: WorkerEvent, runId: number, stage: string, step: number) =>
  e.type === 'step' && e.runId === runId && e.stage === stage && e.record.step === step;
