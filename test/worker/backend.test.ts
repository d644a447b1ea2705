// Backend choice with stand-in starters: the order, what is said about each skipped backend,
// and what a reader who forced a backend is told when it cannot be used.
import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BackendName } from '../../src/protocol/backends';
import { selectBackend, Skip, type Starter } from '../../src/worker/backend';
import { useWasm } from '../tf';

beforeAll(useWasm);
afterEach(useWasm);

/** Starters that run on Node's cpu or wasm backend, or refuse with `why`. */
function starters(refuse: Partial<Record<BackendName, string | Error>>, tried: BackendName[] = []): Record<BackendName, Starter> {
  const make = (name: BackendName): Starter => async (forced) => {
    tried.push(name);
    const why = refuse[name];
    if (why instanceof Error) throw why;
    if (why !== undefined && !(forced && why.startsWith('software'))) throw new Skip(why);
    await tf.setBackend(name === 'wasm' ? 'wasm' : 'cpu');
    return { what: `${name} here${forced ? ' (forced)' : ''}` };
  };
  return { webgpu: make('webgpu'), webgl: make('webgl'), wasm: make('wasm'), cpu: make('cpu') };
}

const wasm = { 'tfjs-backend-wasm.wasm': 'w', 'tfjs-backend-wasm-simd.wasm': 's', 'tfjs-backend-wasm-threaded-simd.wasm': 't' };
const SOFTWARE_GPUS = { webgpu: 'software-only WebGPU adapter (SwiftShader)', webgl: 'software WebGL renderer (SwiftShader)' };

describe('selectBackend', () => {
  it('tries WebGPU, WebGL, WASM, CPU in order and says why each skipped one was skipped', async () => {
    const tried: BackendName[] = [];
    const choice = await selectBackend({ wasm }, starters(SOFTWARE_GPUS, tried));
    expect(tried).toEqual(['webgpu', 'webgl', 'wasm']);
    expect(choice.backend).toBe('wasm');
    expect(choice.skipped).toEqual([
      { backend: 'webgpu', reason: SOFTWARE_GPUS.webgpu },
      { backend: 'webgl', reason: SOFTWARE_GPUS.webgl },
    ]);
    expect(choice.reason).toBe('wasm here: WebGPU and WebGL would run on a software emulation of a GPU, slower on this CPU.');
  });

  it('takes the first choice when it works, and says so', async () => {
    const choice = await selectBackend({ wasm }, starters({}));
    expect(choice).toMatchObject({ backend: 'webgpu', skipped: [], reason: 'webgpu here: the first choice, and it works here.' });
  });

  it('puts a forced backend first, software GPU or not', async () => {
    const choice = await selectBackend({ wasm, forced: 'webgl' }, starters(SOFTWARE_GPUS));
    expect(choice).toMatchObject({ backend: 'webgl', reason: 'webgl here (forced), as asked for with ?backend=webgl.' });
  });

  it('says so, and how much slower, when a forced backend cannot start and another runs instead', async () => {
    const tried: BackendName[] = [];
    const choice = await selectBackend({ wasm, forced: 'wasm' }, starters({ ...SOFTWARE_GPUS, wasm: new Error('no WebAssembly here') }, tried));
    expect(tried).toEqual(['wasm', 'webgpu', 'webgl', 'cpu']);
    expect(choice.backend).toBe('cpu');
    expect(choice.skipped[0]).toEqual({ backend: 'wasm', reason: 'asked for with ?backend=wasm, but failed to start (no WebAssembly here)' });
    expect(choice.reason).toBe(
      'cpu here: ?backend=wasm was asked for, but failed to start (no WebAssembly here); plain JavaScript (CPU) runs instead, roughly 16× slower (measured on a 2-core machine).',
    );
  });

  it('claims no slowdown it has not measured', async () => {
    const choice = await selectBackend({ wasm, forced: 'webgpu' }, starters({ webgpu: 'this browser has no WebGPU', webgl: 'no WebGL2 context' }));
    expect(choice.backend).toBe('wasm');
    expect(choice.reason).toBe('wasm here: ?backend=webgpu was asked for, but this browser has no WebGPU; WebAssembly runs instead.');
  });

  it('after a lost device tries only the backends after the lost one', async () => {
    const tried: BackendName[] = [];
    const choice = await selectBackend({ wasm, after: 'webgpu' }, starters({ webgl: 'no WebGL2 context' }, tried));
    expect(tried).toEqual(['webgl', 'wasm']);
    expect(choice.backend).toBe('wasm');
  });

  it('names every backend and its reason when none can start', async () => {
    const all = { webgpu: 'a', webgl: 'b', wasm: 'c', cpu: 'd' };
    await expect(selectBackend({ wasm }, starters(all))).rejects.toThrow('no tfjs backend could start: webgpu: a; webgl: b; wasm: c; cpu: d');
  });
});
