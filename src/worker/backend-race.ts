/// <reference types="@webgpu/types" />
/**
 * Backend choice in the worker, measured and said out loud.
 *
 * By default (`calibrate` 'auto') it races: every backend that starts on hardware (WebGPU on a
 * real adapter, WebGL on a real renderer, WASM) runs a calibration step (worker/calibrate.ts, a GRPO
 * step in miniature) and the fastest wins. WASM goes first, so each GPU after it is measured
 * against a best time and stopped as soon as it is clearly slower. With a single candidate there
 * is nothing to race and nothing is measured. CPU runs only when none of the three starts. The
 * outcome comes back for the page to keep, per browser and hardware, so the next visit starts at
 * once; after a lost device the next-fastest measured backend takes over. Why race: for a model
 * this small a GPU's per-kernel and per-readback costs can outweigh its arithmetic (~2,200 kernels
 * and ~25 readbacks a step), so the fastest backend depends on the machine, not on its kind.
 *
 * `?backend=` forces one; `calibrate` 'off' keeps the fixed order WebGPU, WebGL, WASM, CPU, the
 * first that starts and computes right winning; 'all' races software GPUs too.
 *
 * Policy for software GPUs: a WebGPU adapter that is a fallback (SwiftShader, llvmpipe) or a
 * WebGL renderer that is software runs the GPU's work on the same CPU cores, with a shader
 * interpreter in between. Measured on a 2-core machine (`npm run bench -- browser`, headless
 * Chromium, SwiftShader), one GRPO step took ~70 ms on WASM, ~2.6 s on CPU and ~20 s on software
 * WebGL and WebGPU alike, so a software GPU is not a candidate unless `?backend=` or `calibrate`
 * 'all' asks.
 */
import * as tf from '@tensorflow/tfjs';
import {
  BACKEND_LABEL,
  BACKENDS,
  CUTS,
  MEASURED_STEP_MS,
  RACE_VERSION,
  type BackendName,
  type CalibrateMode,
  type Cut,
  type RaceEntry,
  type RaceRecord,
} from '../protocol/backends';
import type { BackendModules, SkippedBackend, WasmFiles } from '../protocol/messages';
import { calibrate, type Calibration, type CalibrationOptions } from './calibrate';
import { FIX_FILES, notServed } from '../protocol/files';
import { BUNDLED_BACKENDS } from './backend-modules';
import { webAssemblyHere } from './engine';

/**
 * Why WASM is skipped where the engine has no WebAssembly at all.
 * @internal A test seam: exported for the test of the words.
 */
export const NO_WEBASSEMBLY =
  'this browser runs no WebAssembly: it is switched off (as in Safari’s Lockdown Mode, Tor Browser’s safer levels, or a browser started without its JIT)';

export interface BackendChoice {
  backend: BackendName;
  /** Why this backend, in a sentence for the page. */
  reason: string;
  skipped: SkippedBackend[];
  /** Who takes over after a lost device: the measured order where there is one, then the fixed one. */
  ranking: BackendName[];
  /** A race measured now, for the page to keep (absent when nothing new was measured, or with 'all'). */
  race?: RaceRecord;
}

export interface BackendRequest {
  /** From `?backend=`: tried first, software GPU or not. */
  forced?: BackendName;
  /** How to choose when nothing is forced (default 'auto'). */
  calibrate?: CalibrateMode;
  /** The page's stored race, unchecked: a corrupt, stale or foreign one is ignored and measured again. */
  cached?: unknown;
  /** After a failure: only the backends after this one in `order` are tried, in that order. */
  after?: BackendName;
  /** The order for `after` (a race's ranking); default the fixed order. */
  order?: readonly BackendName[];
  /** Where tfjs's .wasm binaries are (the page's bundler emitted them). */
  wasm: WasmFiles;
  /** Where the backends' modules are, for a worker that does not bundle them (the package's); absent: BUNDLED_BACKENDS. */
  modules?: BackendModules;
  /** Called once if the chosen backend's GPU device is lost later. */
  onLost?: (reason: string) => void;
}

/**
 * Why a backend cannot be used, thrown by a starter and reported in `skipped`.
 * @internal A test seam: exported for the tests' stand-in starters.
 */
export class Skip extends Error {}

/** A file the backend needs (its module, tfjs's .wasm) did not load from `url`: a site's to fix, not the reader's. */
class MissingFile extends Skip {
  constructor(
    readonly url: string,
    why: string,
  ) {
    super(`${url} did not load (${why}); ${FIX_FILES}`);
  }
}

interface Started {
  /** Describes the hardware, e.g. the adapter or renderer. */
  what: string;
  device?: GPUDevice;
}

/**
 * forced: start it even on a software GPU (`?backend=`, or a race with calibrate 'all').
 * @internal A test seam: exported for the tests' stand-in starters.
 */
export type Starter = (forced: boolean, req: BackendRequest) => Promise<Started>;

/** What the choice needs from the world: the real ones in the worker, stand-ins in tests. */
export interface BackendDeps {
  starters: Record<BackendName, Starter>;
  /** Makes an already started backend the active one again. */
  use(backend: BackendName): Promise<void>;
  /** A calibration step on the active backend. */
  measure(opts: CalibrationOptions): Promise<Calibration>;
  /** The browser and its GPUs in a string: the key of a stored race. */
  hardware(): Promise<string>;
}

const REAL: BackendDeps = {
  starters: { webgpu: startWebGpu, webgl: startWebGl, wasm: startWasm, cpu: startCpu },
  use: setBackend,
  measure: calibrate,
  hardware: describeHardware,
};

/** A candidate is cut once its calibration step runs this much longer than the best so far. */
const CUT_MARGIN = 1.5;
/** ...or once its warm-up (shader compilation included) runs longer than this plus twice the best's whole calibration. */
const WARM_UP_ALLOWANCE_MS = 1000;
/** The race's order: WASM first, the baseline that starts almost everywhere, then the GPUs. */
const RACE_ORDER: readonly BackendName[] = ['wasm', 'webgpu', 'webgl'];

export async function selectBackend(req: BackendRequest, deps: Partial<BackendDeps> = {}): Promise<BackendChoice> {
  const d: BackendDeps = { ...REAL, ...deps };
  const mode = req.calibrate ?? 'auto';
  if (req.forced !== undefined || req.after !== undefined || mode === 'off') return inOrder(req, d);
  const hardware = await d.hardware();
  const kept = mode === 'all' ? null : readRace(req.cached, hardware);
  if (kept) {
    const ranking = rankingOf(kept.entries);
    const choice = await inOrder({ ...req, order: ranking, after: undefined }, d, ranking);
    const entry = kept.entries.find((e) => e.backend === choice.backend);
    if (choice.backend !== ranking[0] || !entry) return choice;
    return {
      ...choice,
      reason: `${entry.what}: the fastest of the backends timed on a calibration step here on an earlier visit (${figures(kept.entries)}).`,
      skipped: losers(kept.entries, entry, ' (measured on an earlier visit)'),
    };
  }
  return race(req, d, mode === 'all', hardware);
}

/** Starts every candidate, measures each when there are several, and keeps the fastest. */
async function race(req: BackendRequest, d: BackendDeps, all: boolean, hardware: string): Promise<BackendChoice> {
  const skipped: SkippedBackend[] = [];
  const started: { backend: BackendName; what: string; device?: GPUDevice }[] = [];
  for (const backend of RACE_ORDER) {
    try {
      const s = await d.starters[backend](all, req);
      await checkArithmetic(backend);
      started.push({ backend, what: s.what, device: s.device });
    } catch (e) {
      skipped.push(skip(backend, e));
    }
  }
  if (started.length === 0) {
    // Plain JavaScript is the last resort, as in the fixed order, with the same reasons.
    return inOrder({ ...req, order: ['cpu'], after: undefined }, d, undefined, skipped);
  }
  if (started.length === 1) {
    const only = started[0]!;
    await d.use(only.backend);
    watchDevice(only.device, req.onLost);
    const why = skipped.length ? ` (${skipped.map((s) => `${BACKEND_LABEL[s.backend]}: ${s.reason}`).join('; ')})` : '';
    return {
      backend: only.backend,
      skipped,
      ranking: rankingOf([], only.backend),
      reason: `${only.what}: the only backend that runs on hardware here${why}, so there was nothing to race.`,
    };
  }
  const entries: (RaceEntry & { total: number })[] = [];
  for (const s of started) {
    await d.use(s.backend);
    const best = fastest(entries);
    const c = await d.measure(
      best ? { bound: CUT_MARGIN * best.ms, warmUpBound: WARM_UP_ALLOWANCE_MS + 2 * best.total } : {},
    );
    entries.push({
      backend: s.backend,
      what: s.what,
      ms: round(c.ms),
      cut: c.cut,
      total: c.warmUpMs + c.passes.reduce((a, b) => a + b, 0),
    });
  }
  const clean = entries.map(({ backend, what, ms, cut }) => ({ backend, what, ms, cut }));
  const win = fastest(entries)!;
  await d.use(win.backend);
  const device = started.find((s) => s.backend === win.backend)!.device;
  watchDevice(device, req.onLost);
  return {
    backend: win.backend,
    reason: `${win.what}: the fastest of the ${entries.length} backends timed on a calibration step here (${figures(clean)}).`,
    skipped: [...losers(clean, win, ''), ...skipped],
    ranking: rankingOf(clean),
    race: all ? undefined : { version: RACE_VERSION, hardware, entries: clean },
  };
}

const round = (ms: number): number => Math.round(ms * 10) / 10;

function fastest<T extends RaceEntry>(entries: readonly T[]): T | undefined {
  return entries.filter((e) => !e.cut).sort((a, b) => a.ms - b.ms)[0];
}

/** "WASM (SIMD, one thread) 38 ms · WebGPU on nvidia ampere > 57 ms", fastest first; a cut one as a lower bound. */
function figures(entries: readonly RaceEntry[]): string {
  const time = (e: RaceEntry) =>
    `${e.cut === 'warm-up' ? 'not warmed up after ' : e.cut ? '> ' : ''}${Math.round(e.ms)} ms`;
  return sortRace(entries)
    .map((e) => `${e.what} ${time(e)}`)
    .join(' · ');
}

const CUT_SAYS: Record<Cut, (ms: number) => string> = {
  'round-trip': (ms) => `at least ${ms} ms a calibration step, from one readback’s round trip alone`,
  'warm-up': (ms) => `still warming up after ${ms} ms`,
  pass: (ms) => `stopped after ${ms} ms of a calibration step`,
};

function losers(entries: readonly RaceEntry[], win: RaceEntry, when: string): SkippedBackend[] {
  const best = `${BACKEND_LABEL[win.backend]}’s ${Math.round(win.ms)} ms`;
  return sortRace(entries)
    .filter((e) => e.backend !== win.backend)
    .map((e) => ({
      backend: e.backend,
      reason: e.cut
        ? `${CUT_SAYS[e.cut](Math.round(e.ms))} (${e.what}), already clearly slower than ${best}${when}`
        : `${Math.round(e.ms)} ms a calibration step (${e.what}), slower than ${best}${when}`,
    }));
}

const sortRace = (entries: readonly RaceEntry[]): RaceEntry[] =>
  [...entries].sort((a, b) => Number(a.cut !== false) - Number(b.cut !== false) || a.ms - b.ms);

/** The measured order, then the rest in the fixed order: who takes over after a lost device. */
function rankingOf(entries: readonly RaceEntry[], first?: BackendName): BackendName[] {
  const measured = sortRace(entries).map((e) => e.backend);
  const head = first ? [first] : measured;
  return [...head, ...BACKENDS.filter((b) => !head.includes(b))];
}

/**
 * A stored race, if it is sound and for this browser and hardware; anything else is null.
 * @internal A test seam: exported for its test.
 */
export function readRace(x: unknown, hardware: string): RaceRecord | null {
  if (typeof x !== 'object' || x === null) return null;
  const r = x as Partial<RaceRecord>;
  if (r.version !== RACE_VERSION || r.hardware !== hardware || !Array.isArray(r.entries) || r.entries.length === 0)
    return null;
  const sound = r.entries.every(
    (e: unknown) =>
      typeof e === 'object' &&
      e !== null &&
      BACKENDS.includes((e as RaceEntry).backend) &&
      typeof (e as RaceEntry).what === 'string' &&
      Number.isFinite((e as RaceEntry).ms) &&
      (e as RaceEntry).ms >= 0 &&
      ((e as RaceEntry).cut === false || CUTS.includes((e as RaceEntry).cut as Cut)),
  );
  return sound && r.entries.some((e) => !e.cut) ? (r as RaceRecord) : null;
}

/**
 * Tries the backends in order, the first that starts and computes right winning. ranking: who
 * takes over after it (default: the rest of the order); skipped: those already ruled out.
 */
async function inOrder(
  req: BackendRequest,
  d: BackendDeps,
  ranking?: BackendName[],
  skipped: SkippedBackend[] = [],
): Promise<BackendChoice> {
  const base = req.order ?? BACKENDS;
  const from = req.after === undefined ? 0 : base.indexOf(req.after) + 1;
  const order = base.slice(from).filter((b) => b !== req.forced && b !== req.after);
  if (req.forced && req.after === undefined) order.unshift(req.forced);
  for (const backend of order) {
    const forced = backend === req.forced;
    try {
      const started = await d.starters[backend](forced, req);
      await checkArithmetic(backend);
      watchDevice(started.device, req.onLost);
      const rest = ranking ?? [...base.slice(base.indexOf(backend)), ...BACKENDS.filter((b) => !base.includes(b))];
      return {
        backend,
        skipped,
        ranking: rest,
        reason: reasonFor(backend, started.what, forced, skipped, req.after === undefined ? req.forced : undefined),
      };
    } catch (e) {
      skipped.push(skip(backend, e, forced ? `asked for with ?backend=${backend}, but ` : ''));
    }
  }
  throw new Error(`no tfjs backend could start: ${skipped.map((s) => `${s.backend}: ${s.reason}`).join('; ')}`);
}

function reasonFor(
  backend: BackendName,
  what: string,
  forced: boolean,
  skipped: SkippedBackend[],
  asked?: BackendName,
): string {
  if (forced) return `${what}, as asked for with ?backend=${backend}.`;
  const names = (list: SkippedBackend[]) => list.map((s) => BACKEND_LABEL[s.backend]).join(' and ');
  if (asked !== undefined && asked !== backend) {
    const why =
      skipped.find((s) => s.backend === asked)?.reason.replace(/^asked for with \?backend=\w+, but /, '') ??
      'it could not start';
    return `${what}: ?backend=${asked} was asked for, but ${why}; ${BACKEND_LABEL[backend]} runs instead${slower(backend, asked)}.`;
  }
  if (skipped.length === 0) return `${what}: the first choice, and it works here.`;
  const software = skipped.filter((s) => s.reason.startsWith('software'));
  const none = skipped.filter((s) => s.reason === NO_WEBASSEMBLY);
  const other = skipped.filter((s) => !s.reason.startsWith('software') && s.reason !== NO_WEBASSEMBLY);
  const why = [
    software.length ? `${names(software)} would run on a software emulation of a GPU, slower on this CPU` : '',
    none.length ? NO_WEBASSEMBLY : '',
    other.length ? `${names(other)} could not be used` : '',
  ];
  return `${what}: ${why.filter(Boolean).join('; ')}.`;
}

/** ", roughly 38× slower" where both backends were measured and the fallback is slower. */
function slower(fallback: BackendName, asked: BackendName): string {
  const a = MEASURED_STEP_MS[asked];
  const f = MEASURED_STEP_MS[fallback];
  if (a === undefined || f === undefined || f < 1.5 * a) return '';
  return `, roughly ${Math.round(f / a)}× slower (measured on a 2-core machine)`;
}

async function setBackend(name: BackendName): Promise<void> {
  // After a failed switch tf.getBackend() can still name the requested backend: trust the return value.
  if (!(await tf.setBackend(name))) throw new Skip(`tf.setBackend('${name}') returned false`);
  await tf.ready();
}

/** A backend that starts but computes wrong numbers (e.g. readbacks of zeros) is no backend. */
async function checkArithmetic(backend: BackendName): Promise<void> {
  const t = tf.tidy(() => tf.add(tf.tensor1d([1, 2, 3]), 1));
  const got = Array.from(await t.data());
  t.dispose();
  if (got.join(',') !== '2,3,4') throw new Skip(`computed 1+[1,2,3] as [${got}] on ${backend}`);
}

const SOFTWARE = /swiftshader|llvmpipe|lavapipe|softpipe|software|basic render/i;

/** Newer browsers put the facts on adapter.info (isFallbackAdapter included), older ones on the adapter. */
async function adapterName(adapter: GPUAdapter): Promise<{ name: string; software: boolean }> {
  const legacy = adapter as GPUAdapter & { info?: GPUAdapterInfo; isFallbackAdapter?: boolean };
  const info = (legacy.info ?? (await legacy.requestAdapterInfo?.()) ?? {}) as Partial<GPUAdapterInfo> & {
    isFallbackAdapter?: boolean;
  };
  const name = [info.vendor, info.architecture, info.description].filter(Boolean).join(' ') || 'an unnamed adapter';
  return {
    name,
    software: info.isFallbackAdapter === true || legacy.isFallbackAdapter === true || SOFTWARE.test(name),
  };
}

/**
 * A backend's module: from its URL where the page gave one, else from this worker's own bundle.
 * A module that does not load is named with its URL and the setting that fixes it.
 */
async function backendModule<K extends keyof BackendModules>(
  kind: K,
  req: BackendRequest,
): Promise<Awaited<ReturnType<(typeof BUNDLED_BACKENDS)[K]>>> {
  const url = req.modules?.[kind];
  if (url === undefined) return (await BUNDLED_BACKENDS[kind]()) as Awaited<ReturnType<(typeof BUNDLED_BACKENDS)[K]>>;
  try {
    return await import(/* @vite-ignore */ /* webpackIgnore: true */ url);
  } catch (e) {
    throw new MissingFile(url, (await notServed(url)) ?? (e as Error).message);
  }
}

async function startWebGpu(forced: boolean, req: BackendRequest): Promise<Started> {
  if (typeof navigator === 'undefined' || !('gpu' in navigator)) throw new Skip('this browser has no WebGPU');
  const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Skip('no WebGPU adapter');
  const { name, software } = await adapterName(adapter);
  if (software && !forced) throw new Skip(`software-only WebGPU adapter (${name}), slower than WASM on the same CPU`);
  await backendModule('webgpu', req);
  // The default matMul program is very slow on small matrices; program 3 was ~10× faster in our probe.
  tf.env().set('WEBGPU_MATMUL_PROGRAM_TYPE', 3);
  await setBackend('webgpu');
  const device = (tf.backend() as unknown as { device: GPUDevice }).device;
  return { what: `WebGPU on ${software ? 'a software adapter, ' : ''}${name}`, device };
}

async function startWebGl(forced: boolean, req: BackendRequest): Promise<Started> {
  const renderer = webGlRenderer();
  if (renderer === null) throw new Skip('no WebGL2 context');
  if (SOFTWARE.test(renderer) && !forced)
    throw new Skip(`software WebGL renderer (${renderer}), slower than WASM on the same CPU`);
  await backendModule('webgl', req);
  await setBackend('webgl');
  return { what: `WebGL on ${renderer}` };
}

function webGlRenderer(): string | null {
  if (typeof OffscreenCanvas === 'undefined') return null;
  const gl = new OffscreenCanvas(1, 1).getContext('webgl2');
  if (!gl) return null;
  const ext = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer = String(gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return renderer;
}

/** The browser, its WebGPU adapter and its WebGL renderer, without starting any backend. */
async function describeHardware(): Promise<string> {
  const gpu =
    typeof navigator !== 'undefined' && 'gpu' in navigator
      ? await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' }).catch(() => null)
      : null;
  return [
    typeof navigator !== 'undefined' ? navigator.userAgent : 'no navigator',
    `WebGPU: ${gpu ? (await adapterName(gpu)).name : 'none'}`,
    `WebGL: ${webGlRenderer() ?? 'none'}`,
  ].join(' | ');
}

async function startWasm(_forced: boolean, req: BackendRequest): Promise<Started> {
  // Not "no SIMD": tfjs's SIMD check reads a missing WebAssembly as no SIMD.
  if (webAssemblyHere() === 'none') throw new Skip(NO_WEBASSEMBLY);
  const wasm = await backendModule('wasm', req);
  // Threads need cross-origin isolation an embedding page may not have, and the threaded build
  // crashed in our probe (tfjs #4107): stay on the single-threaded SIMD build.
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  // Only the SIMD binary comes with the plate (src/ui/wasm-files.ts says why).
  if (!(await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT')))
    throw new Skip('this browser’s WebAssembly has no SIMD, and the plate ships only tfjs’s SIMD build');
  // The page passes the binaries' URLs (its bundler emitted them): nothing from a CDN.
  wasm.setWasmPaths({ ...req.wasm });
  try {
    await setBackend('wasm');
  } catch (e) {
    // tfjs says only that initialisation failed: a binary that is not there is the site's to fix.
    const binary = req.wasm['tfjs-backend-wasm-simd.wasm'];
    const why = await notServed(binary);
    if (why !== null) throw new MissingFile(binary, why);
    throw e;
  }
  return { what: 'WASM (SIMD, one thread)' };
}

async function startCpu(): Promise<Started> {
  await setBackend('cpu');
  return { what: 'the plain-JavaScript CPU backend' };
}

/** What a starter's failure says in `skipped`: a Skip's own reason, or what went wrong. */
const whyNot = (e: unknown): string => (e instanceof Skip ? e.message : `failed to start (${(e as Error).message})`);

const skip = (backend: BackendName, e: unknown, prefix = ''): SkippedBackend => ({
  backend,
  reason: prefix + whyNot(e),
  ...(e instanceof MissingFile && { file: e.url }),
});

/** Calls `onLost` once if the chosen backend's GPU device is lost (no device or no listener: nothing to watch). */
function watchDevice(device: GPUDevice | undefined, onLost: ((reason: string) => void) | undefined): void {
  if (!device || !onLost) return;
  void device.lost.then((info) => {
    // 'destroyed' is our own doing (tfjs disposing the backend), not a failure.
    if (info.reason !== 'destroyed' || tf.getBackend() === 'webgpu')
      onLost(`the GPU device was lost (${info.message || info.reason || 'no reason given'})`);
  });
}
