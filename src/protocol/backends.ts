// The tfjs backends, in the order the worker tries them, and how the page names them.
export type BackendName = 'webgpu' | 'webgl' | 'wasm' | 'cpu';
export const BACKENDS: readonly BackendName[] = ['webgpu', 'webgl', 'wasm', 'cpu'];

export const BACKEND_LABEL: Record<BackendName, string> = {
  webgpu: 'WebGPU',
  webgl: 'WebGL',
  wasm: 'WebAssembly',
  cpu: 'plain JavaScript (CPU)',
};

export function isBackendName(x: unknown): x is BackendName {
  return (BACKENDS as readonly unknown[]).includes(x);
}

/**
 * Milliseconds per GRPO step in the Chromium worker, measured by `npm run bench -- browser` on a
 * 2-core machine without a GPU (docs/performance.md, "Other backends"): the only figures we can
 * state about how much slower a fallback is, and only their ratio carries to another machine. The
 * GPU backends were measured on software adapters only, so nothing is claimed for a real GPU.
 */
export const MEASURED_STEP_MS: Partial<Record<BackendName, number>> = { wasm: 69, cpu: 2642 };

/**
 * The engine the worker trains on (worker/engine.ts). webAssembly: 'none' where it is switched off
 * or missing (Safari's Lockdown Mode, Tor Browser's safer levels, Chromium run with --jitless),
 * 'no-simd', or 'simd'. jsSlowdown: how many times slower than an engine with its JIT JavaScript
 * ran a short timed loop, measured only where plain JavaScript trains (null elsewhere).
 */
export interface EngineReport {
  webAssembly: 'none' | 'no-simd' | 'simd';
  jsSlowdown: number | null;
}

/** From this slowdown on, JavaScript runs without its JIT (with one the probe reads ~1; without, 35–110). */
export const NO_JIT_FROM = 8;

/**
 * How the worker chooses (`?calibrate=`): 'auto' races the backends that run on hardware and keeps
 * the fastest (remembered per browser and hardware); 'all' races software GPUs too and remembers
 * nothing (for tests and the curious); 'off' keeps the fixed order above.
 */
export type CalibrateMode = 'auto' | 'all' | 'off';
export const CALIBRATE_MODES: readonly CalibrateMode[] = ['auto', 'all', 'off'];

/**
 * Which model kernels the worker runs, as its ready event says: 'fused', a few large WebAssembly
 * kernels per step (model/fused/, on WASM), or 'unfused', tfjs's own ops — the same values bit for
 * bit, slower. Other backends always run the unfused ops; on WASM only the bench asks for them,
 * by the worker's script URL (src/worker/training.worker.ts), not through this protocol.
 */
export type KernelsMode = 'fused' | 'unfused';

/**
 * Why a calibration stopped early, `ms` then being: 'round-trip', the least a step can take given
 * one readback's round trip; 'warm-up', how long the warm-up ran; 'pass', how long the timed pass
 * ran. Each is already clearly slower than the best so far.
 */
export type Cut = 'round-trip' | 'warm-up' | 'pass';
export const CUTS: readonly Cut[] = ['round-trip', 'warm-up', 'pass'];

/** One backend's time in the race: a calibration step (worker/calibrate.ts), or how far it got before it was cut. */
export interface RaceEntry {
  backend: BackendName;
  /** The hardware, as the status names it: "WebGPU on nvidia ampere", "WASM (SIMD, one thread)". */
  what: string;
  ms: number;
  /** Stopped early, already slower than the best (false: ran to the end). */
  cut: Cut | false;
}

/** A race's outcome as the page keeps it (localStorage) for the next visit, and checks it on reading. */
export interface RaceRecord {
  version: typeof RACE_VERSION;
  /** The browser and its GPUs, as the worker describes them: another string, another race. */
  hardware: string;
  entries: RaceEntry[];
}

/** Bumped when the calibration step changes, so older figures are measured again. */
export const RACE_VERSION = 2; // 2: WASM runs the fused kernels
