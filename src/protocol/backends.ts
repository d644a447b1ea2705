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
 * Milliseconds per GRPO step in the Chromium worker, measured by `npm run bench` on a 2-core
 * machine without a GPU (README, "Speed and memory"): the only figures we can state about how
 * much slower a fallback is. The GPU backends were measured on software adapters only, so
 * nothing is claimed for a real GPU.
 */
export const MEASURED_STEP_MS: Partial<Record<BackendName, number>> = { wasm: 185, cpu: 3005 };
