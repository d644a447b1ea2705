/// <reference types="@webgpu/types" />
/**
 * Backend choice in the worker, said out loud. Order: WebGPU, WebGL, WASM, CPU; the first that
 * starts and computes right wins, and every one skipped on the way says why.
 *
 * Policy for software GPUs: a WebGPU adapter that is a fallback (SwiftShader, llvmpipe) or a
 * WebGL renderer that is software runs the GPU's work on the same CPU cores, with a shader
 * interpreter in between. Measured on a 2-core machine (headless Chromium 156, SwiftShader), one
 * GRPO step took ~0.4 s on WASM, ~3.5 s on CPU, ~6 s on software WebGL and ~30 s on software
 * WebGPU, so a software GPU is skipped in favour of WASM unless `?backend=` forces it.
 */
import * as tf from '@tensorflow/tfjs';
import { BACKEND_LABEL, BACKENDS, MEASURED_STEP_MS, type BackendName } from '../protocol/backends';
import type { SkippedBackend, WasmFiles } from '../protocol/messages';

export interface BackendChoice {
  backend: BackendName;
  /** Why this backend, in a sentence for the page. */
  reason: string;
  skipped: SkippedBackend[];
}

export interface BackendRequest {
  /** From `?backend=`: tried first, software GPU or not. */
  forced?: BackendName;
  /** After a failure: only the backends after this one in the order are tried. */
  after?: BackendName;
  /** Where tfjs's .wasm binaries are (the page's bundler emitted them). */
  wasm: WasmFiles;
  /** Called once if the chosen backend's GPU device is lost later. */
  onLost?: (reason: string) => void;
}

/** Why a backend cannot be used, thrown by a starter and reported in `skipped`. */
export class Skip extends Error {}

export interface Started {
  /** Describes the hardware, e.g. the adapter or renderer. */
  what: string;
  device?: GPUDevice;
}

export type Starter = (forced: boolean, req: BackendRequest) => Promise<Started>;

const STARTERS: Record<BackendName, Starter> = { webgpu: startWebGpu, webgl: startWebGl, wasm: startWasm, cpu: startCpu };

/** Tries the backends in order (starters: the real ones, or stand-ins in tests). */
export async function selectBackend(req: BackendRequest, starters: Record<BackendName, Starter> = STARTERS): Promise<BackendChoice> {
  const skipped: SkippedBackend[] = [];
  const from = req.after === undefined ? 0 : BACKENDS.indexOf(req.after) + 1;
  const order = BACKENDS.slice(from).filter((b) => b !== req.forced);
  if (req.forced && req.after === undefined) order.unshift(req.forced);
  for (const backend of order) {
    const forced = backend === req.forced;
    try {
      const started = await starters[backend](forced, req);
      await checkArithmetic(backend);
      if (started.device && req.onLost) watchDevice(started.device, req.onLost);
      return { backend, skipped, reason: reasonFor(backend, started.what, forced, skipped, req.after === undefined ? req.forced : undefined) };
    } catch (e) {
      const why = e instanceof Skip ? e.message : `failed to start (${(e as Error).message})`;
      skipped.push({ backend, reason: forced ? `asked for with ?backend=${backend}, but ${why}` : why });
    }
  }
  throw new Error(`no tfjs backend could start: ${skipped.map((s) => `${s.backend}: ${s.reason}`).join('; ')}`);
}

function reasonFor(backend: BackendName, what: string, forced: boolean, skipped: SkippedBackend[], asked?: BackendName): string {
  if (forced) return `${what}, as asked for with ?backend=${backend}.`;
  const names = (list: SkippedBackend[]) => list.map((s) => BACKEND_LABEL[s.backend]).join(' and ');
  if (asked !== undefined && asked !== backend) {
    const why = skipped.find((s) => s.backend === asked)?.reason.replace(/^asked for with \?backend=\w+, but /, '') ?? 'it could not start';
    return `${what}: ?backend=${asked} was asked for, but ${why}; ${BACKEND_LABEL[backend]} runs instead${slower(backend, asked)}.`;
  }
  if (skipped.length === 0) return `${what}: the first choice, and it works here.`;
  const software = skipped.filter((s) => s.reason.startsWith('software'));
  const other = skipped.filter((s) => !s.reason.startsWith('software'));
  const why = [
    software.length ? `${names(software)} would run on a software emulation of a GPU, slower on this CPU` : '',
    other.length ? `${names(other)} could not be used` : '',
  ];
  return `${what}: ${why.filter(Boolean).join('; ')}.`;
}

/** ", roughly 16× slower" where both backends were measured and the fallback is slower. */
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

async function startWebGpu(forced: boolean): Promise<Started> {
  if (typeof navigator === 'undefined' || !('gpu' in navigator)) throw new Skip('this browser has no WebGPU');
  const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Skip('no WebGPU adapter');
  // Newer browsers put the facts on adapter.info (isFallbackAdapter included), older ones
  // behind requestAdapterInfo() with isFallbackAdapter on the adapter itself.
  const legacy = adapter as GPUAdapter & { info?: GPUAdapterInfo; isFallbackAdapter?: boolean };
  const info = (legacy.info ?? (await legacy.requestAdapterInfo?.()) ?? {}) as Partial<GPUAdapterInfo> & { isFallbackAdapter?: boolean };
  const name = [info.vendor, info.architecture, info.description].filter(Boolean).join(' ') || 'an unnamed adapter';
  const software = info.isFallbackAdapter === true || legacy.isFallbackAdapter === true || SOFTWARE.test(name);
  if (software && !forced) throw new Skip(`software-only WebGPU adapter (${name}), slower than WASM on the same CPU`);
  await import('@tensorflow/tfjs-backend-webgpu');
  // The default matMul program is very slow on small matrices; program 3 was ~10× faster in our probe.
  tf.env().set('WEBGPU_MATMUL_PROGRAM_TYPE', 3);
  await setBackend('webgpu');
  const device = (tf.backend() as unknown as { device: GPUDevice }).device;
  return { what: `WebGPU on ${software ? 'a software adapter, ' : ''}${name}`, device };
}

async function startWebGl(forced: boolean): Promise<Started> {
  const renderer = webGlRenderer();
  if (renderer === null) throw new Skip('no WebGL2 context');
  if (SOFTWARE.test(renderer) && !forced) throw new Skip(`software WebGL renderer (${renderer}), slower than WASM on the same CPU`);
  await import('@tensorflow/tfjs-backend-webgl');
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

async function startWasm(_forced: boolean, req: BackendRequest): Promise<Started> {
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  // Threads need cross-origin isolation an embedding page may not have, and the threaded build
  // crashed in our probe (tfjs #4107): stay on the single-threaded SIMD build.
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  // Only the SIMD binary comes with the plate (src/ui/wasm-files.ts says why).
  if (!(await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'))) throw new Skip('this browser’s WebAssembly has no SIMD, and the plate ships only tfjs’s SIMD build');
  // The page passes the binaries' URLs (its bundler emitted them): nothing from a CDN.
  wasm.setWasmPaths({ ...req.wasm });
  await setBackend('wasm');
  return { what: 'WASM (SIMD, one thread)' };
}

async function startCpu(): Promise<Started> {
  await setBackend('cpu');
  return { what: 'the plain-JavaScript CPU backend' };
}

function watchDevice(device: GPUDevice, onLost: (reason: string) => void): void {
  void device.lost.then((info) => {
    // 'destroyed' is our own doing (tfjs disposing the backend), not a failure.
    if (info.reason !== 'destroyed' || tf.getBackend() === 'webgpu') onLost(`the GPU device was lost (${info.message || info.reason || 'no reason given'})`);
  });
}
