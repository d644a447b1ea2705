// Backend choice with stand-in starters: the order, what is said about each skipped backend,
// and what a reader who forced a backend is told when it cannot be used.
import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BackendName } from '../../src/protocol/backends';
import { RACE_VERSION } from '../../src/protocol/backends';
import {
  NO_WEBASSEMBLY,
  readRace,
  selectBackend,
  Skip,
  type BackendDeps,
  type Starter,
} from '../../src/worker/backend-race';
import { useWasm } from '../tf';

beforeAll(useWasm);
afterEach(useWasm);

/** Starters that run on Node's cpu or wasm backend, or refuse with `why`. */
function starters(
  refuse: Partial<Record<BackendName, string | Error>>,
  tried: BackendName[] = [],
): Record<BackendName, Starter> {
  const make =
    (name: BackendName): Starter =>
    async (forced) => {
      tried.push(name);
      const why = refuse[name];
      if (why instanceof Error) throw why;
      if (why !== undefined && !(forced && why.startsWith('software'))) throw new Skip(why);
      await tf.setBackend(name === 'wasm' ? 'wasm' : 'cpu');
      return { what: `${name} here${forced ? ' (forced)' : ''}` };
    };
  return { webgpu: make('webgpu'), webgl: make('webgl'), wasm: make('wasm'), cpu: make('cpu') };
}

const wasm = {
  'tfjs-backend-wasm.wasm': 'w',
  'tfjs-backend-wasm-simd.wasm': 's',
  'tfjs-backend-wasm-threaded-simd.wasm': 't',
};
const SOFTWARE_GPUS = {
  webgpu: 'software-only WebGPU adapter (SwiftShader)',
  webgl: 'software WebGL renderer (SwiftShader)',
};

describe('selectBackend in the fixed order (calibrate=off, a forced backend, after a loss)', () => {
  it('tries WebGPU, WebGL, WASM, CPU in order and says why each skipped one was skipped', async () => {
    const tried: BackendName[] = [];
    const choice = await selectBackend({ wasm, calibrate: 'off' }, { starters: starters(SOFTWARE_GPUS, tried) });
    expect(tried).toEqual(['webgpu', 'webgl', 'wasm']);
    expect(choice.backend).toBe('wasm');
    expect(choice.skipped).toEqual([
      { backend: 'webgpu', reason: SOFTWARE_GPUS.webgpu },
      { backend: 'webgl', reason: SOFTWARE_GPUS.webgl },
    ]);
    expect(choice.reason).toBe(
      'wasm here: WebGPU and WebGL would run on a software emulation of a GPU, slower on this CPU.',
    );
  });

  it('takes the first choice when it works, and says so', async () => {
    const choice = await selectBackend({ wasm, calibrate: 'off' }, { starters: starters({}) });
    expect(choice).toMatchObject({
      backend: 'webgpu',
      skipped: [],
      reason: 'webgpu here: the first choice, and it works here.',
    });
  });

  it('puts a forced backend first, software GPU or not', async () => {
    const choice = await selectBackend({ wasm, forced: 'webgl' }, { starters: starters(SOFTWARE_GPUS) });
    expect(choice).toMatchObject({
      backend: 'webgl',
      reason: 'webgl here (forced), as asked for with ?backend=webgl.',
    });
  });

  it('says so, and how much slower, when a forced backend cannot start and another runs instead', async () => {
    const tried: BackendName[] = [];
    const choice = await selectBackend(
      { wasm, forced: 'wasm' },
      { starters: starters({ ...SOFTWARE_GPUS, wasm: new Error('no WebAssembly here') }, tried) },
    );
    expect(tried).toEqual(['wasm', 'webgpu', 'webgl', 'cpu']);
    expect(choice.backend).toBe('cpu');
    expect(choice.skipped[0]).toEqual({
      backend: 'wasm',
      reason: 'asked for with ?backend=wasm, but failed to start (no WebAssembly here)',
    });
    expect(choice.reason).toBe(
      'cpu here: ?backend=wasm was asked for, but failed to start (no WebAssembly here); plain JavaScript (CPU) runs instead, roughly 38× slower (measured on a 2-core machine).',
    );
  });

  it('claims no slowdown it has not measured', async () => {
    const choice = await selectBackend(
      { wasm, forced: 'webgpu' },
      { starters: starters({ webgpu: 'this browser has no WebGPU', webgl: 'no WebGL2 context' }) },
    );
    expect(choice.backend).toBe('wasm');
    expect(choice.reason).toBe(
      'wasm here: ?backend=webgpu was asked for, but this browser has no WebGPU; WebAssembly runs instead.',
    );
  });

  it('after a lost device tries only the backends after the lost one', async () => {
    const tried: BackendName[] = [];
    const choice = await selectBackend(
      { wasm, after: 'webgpu' },
      { starters: starters({ webgl: 'no WebGL2 context' }, tried) },
    );
    expect(tried).toEqual(['webgl', 'wasm']);
    expect(choice.backend).toBe('wasm');
  });

  it('names every backend and its reason when none can start', async () => {
    const all = { webgpu: 'a', webgl: 'b', wasm: 'c', cpu: 'd' };
    await expect(selectBackend({ wasm, calibrate: 'off' }, { starters: starters(all) })).rejects.toThrow(
      'no tfjs backend could start: webgpu: a; webgl: b; wasm: c; cpu: d',
    );
  });
});

/**
 * A race with stand-ins: starters that refuse as told, a calibration step whose time is set per
 * backend (cut, as the real one cuts itself, once past its bound), and a fixed hardware string.
 */
function racers(
  times: Partial<Record<BackendName, number>>,
  refuse: Partial<Record<BackendName, string>> = {},
  hardware = 'Chromium | WebGPU: nvidia | WebGL: none',
) {
  const tried: BackendName[] = [];
  const measured: { backend: BackendName; bound?: number; warmUpBound?: number }[] = [];
  let active: BackendName = 'wasm';
  const deps: Partial<BackendDeps> = {
    starters: starters(refuse, tried),
    hardware: async () => hardware,
    use: async (b) => {
      active = b;
      await tf.setBackend(b === 'wasm' ? 'wasm' : 'cpu');
    },
    measure: async ({ bound, warmUpBound }) => {
      measured.push({ backend: active, bound, warmUpBound });
      const ms = times[active]!;
      const over = bound !== undefined && ms > bound;
      return {
        ms: over ? bound : ms,
        cut: over ? 'pass' : false,
        warmUpMs: 10,
        passes: over ? [] : [ms],
        readbacks: 0,
      };
    },
  };
  return { deps, tried, measured, active: () => active };
}

describe('the backend race (calibrate=auto)', () => {
  it('measures every backend that runs on hardware, WASM first, and the fastest wins with its figures said', async () => {
    const r = racers({ wasm: 38, webgpu: 51 }, { webgl: SOFTWARE_GPUS.webgl });
    const choice = await selectBackend({ wasm }, r.deps);
    expect(r.measured.map((m) => m.backend)).toEqual(['wasm', 'webgpu']);
    expect(choice.backend).toBe('wasm');
    expect(r.active()).toBe('wasm');
    expect(choice.reason).toBe(
      'wasm here: the fastest of the 2 backends timed on a calibration step here (wasm here 38 ms · webgpu here 51 ms).',
    );
    expect(choice.skipped).toEqual([
      { backend: 'webgpu', reason: '51 ms a calibration step (webgpu here), slower than WebAssembly’s 38 ms' },
      { backend: 'webgl', reason: SOFTWARE_GPUS.webgl },
    ]);
    expect(choice.ranking).toEqual(['wasm', 'webgpu', 'webgl', 'cpu']);
  });

  it('picks a GPU where it is measured faster', async () => {
    const r = racers({ wasm: 38, webgpu: 12, webgl: 15 });
    const choice = await selectBackend({ wasm }, r.deps);
    expect(choice.backend).toBe('webgpu');
    expect(r.active()).toBe('webgpu');
    expect(choice.ranking).toEqual(['webgpu', 'webgl', 'wasm', 'cpu']);
  });

  it('bounds a candidate by the best so far, and says a cut one was stopped', async () => {
    const r = racers({ wasm: 40, webgpu: 300 }, { webgl: 'no WebGL2 context' });
    const choice = await selectBackend({ wasm }, r.deps);
    expect(r.measured).toEqual([
      { backend: 'wasm', bound: undefined, warmUpBound: undefined },
      { backend: 'webgpu', bound: 60, warmUpBound: 1100 }, // 1.5 × 40; 1000 + 2 × (10 + 40)
    ]);
    expect(choice.backend).toBe('wasm');
    expect(choice.skipped[0]).toEqual({
      backend: 'webgpu',
      reason:
        'stopped after 60 ms of a calibration step (webgpu here), already clearly slower than WebAssembly’s 40 ms',
    });
    expect(choice.race?.entries).toEqual([
      { backend: 'wasm', what: 'wasm here', ms: 40, cut: false },
      { backend: 'webgpu', what: 'webgpu here', ms: 60, cut: 'pass' },
    ]);
  });

  it('measures nothing when only one backend runs on hardware', async () => {
    const r = racers({ wasm: 38 }, SOFTWARE_GPUS);
    const choice = await selectBackend({ wasm }, r.deps);
    expect(r.measured).toEqual([]);
    expect(choice.backend).toBe('wasm');
    expect(choice.race).toBeUndefined();
    expect(choice.reason).toBe(
      `wasm here: the only backend that runs on hardware here (WebGPU: ${SOFTWARE_GPUS.webgpu}; WebGL: ${SOFTWARE_GPUS.webgl}), so there was nothing to race.`,
    );
  });

  it('falls back to plain JavaScript only when none of the three starts', async () => {
    const r = racers({}, { ...SOFTWARE_GPUS, wasm: 'no SIMD' });
    const choice = await selectBackend({ wasm }, r.deps);
    expect(r.tried).toEqual(['wasm', 'webgpu', 'webgl', 'cpu']);
    expect(choice.backend).toBe('cpu');
    expect(r.measured).toEqual([]);
  });

  it('hands back what it measured for the page to keep, and starts at once from it on the next visit', async () => {
    const first = racers({ wasm: 38, webgpu: 71 }, { webgl: 'no WebGL2 context' });
    const { race } = await selectBackend({ wasm }, first.deps);
    expect(race).toMatchObject({ version: RACE_VERSION, hardware: 'Chromium | WebGPU: nvidia | WebGL: none' });
    const again = racers({ wasm: 38, webgpu: 71 }, { webgl: 'no WebGL2 context' });
    const choice = await selectBackend({ wasm, cached: JSON.parse(JSON.stringify(race)) }, again.deps);
    expect(again.measured).toEqual([]);
    expect(again.tried).toEqual(['wasm']);
    expect(choice.race).toBeUndefined();
    expect(choice.reason).toContain(
      'the fastest of the backends timed on a calibration step here on an earlier visit (wasm here 38 ms · webgpu here > 57 ms).',
    );
    expect(choice.ranking).toEqual(['wasm', 'webgpu', 'webgl', 'cpu']);
  });

  it('measures again when the kept race is corrupt, stale or from other hardware', async () => {
    const good = {
      version: RACE_VERSION,
      hardware: 'Chromium | WebGPU: nvidia | WebGL: none',
      entries: [{ backend: 'wasm', what: 'w', ms: 38, cut: false }],
    };
    const bad: unknown[] = [
      'not json at all',
      null,
      { ...good, version: RACE_VERSION + 1 },
      { ...good, hardware: 'Chromium | WebGPU: another card | WebGL: none' },
      { ...good, entries: [{ backend: 'tpu', what: 'w', ms: 38, cut: false }] },
      { ...good, entries: [{ backend: 'wasm', what: 'w', ms: Number.NaN, cut: false }] },
      { ...good, entries: [{ backend: 'wasm', what: 'w', ms: 38, cut: 'pass' }] },
      { ...good, entries: [{ backend: 'wasm', what: 'w', ms: 38, cut: 'yes' }] },
      { ...good, entries: [] },
    ];
    expect(readRace(good, good.hardware)).toEqual(good);
    for (const cached of bad) {
      const r = racers({ wasm: 38, webgpu: 71 }, { webgl: 'no WebGL2 context' });
      const choice = await selectBackend({ wasm, cached }, r.deps);
      expect(
        r.measured.map((m) => m.backend),
        JSON.stringify(cached),
      ).toEqual(['wasm', 'webgpu']);
      expect(choice.race).toBeDefined();
    }
  });

  it('does not race when a backend is forced, or with calibrate=off', async () => {
    const forced = racers({ wasm: 38, webgpu: 71 });
    expect((await selectBackend({ wasm, forced: 'webgpu' }, forced.deps)).backend).toBe('webgpu');
    const off = racers({ wasm: 38, webgpu: 71 });
    expect((await selectBackend({ wasm, calibrate: 'off' }, off.deps)).backend).toBe('webgpu');
    expect([...forced.measured, ...off.measured]).toEqual([]);
  });

  it('races software GPUs too with calibrate=all, and keeps nothing', async () => {
    const r = racers({ wasm: 38, webgpu: 900, webgl: 50 }, SOFTWARE_GPUS);
    const choice = await selectBackend({ wasm, calibrate: 'all' }, r.deps);
    expect(r.measured.map((m) => m.backend)).toEqual(['wasm', 'webgpu', 'webgl']);
    expect(choice.backend).toBe('wasm');
    expect(choice.reason).toBe(
      'wasm here (forced): the fastest of the 3 backends timed on a calibration step here (wasm here (forced) 38 ms · webgl here (forced) 50 ms · webgpu here (forced) > 57 ms).',
    );
    expect(choice.race).toBeUndefined();
  });

  it('after a lost device, hands over to the next-fastest measured backend, not the next in the fixed order', async () => {
    const r = racers({ wasm: 30, webgpu: 12, webgl: 45 });
    const { ranking } = await selectBackend({ wasm }, r.deps);
    const tried: BackendName[] = [];
    const next = await selectBackend({ wasm, after: 'webgpu', order: ranking }, { starters: starters({}, tried) });
    expect(tried).toEqual(['wasm']);
    expect(next.backend).toBe('wasm');
    expect(next.ranking).toEqual(['wasm', 'webgl', 'cpu']);
  });
});

describe('a browser without WebAssembly', () => {
  it('is said to run none, not to lack SIMD, and trains on plain JavaScript', async () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'WebAssembly')!;
    // As Chromium started with --js-flags=--jitless, or Firefox with javascript.options.wasm off.
    Reflect.deleteProperty(globalThis, 'WebAssembly');
    try {
      const choice = await selectBackend({ wasm, calibrate: 'off' });
      expect(choice.backend).toBe('cpu');
      expect(choice.skipped.find((s) => s.backend === 'wasm')?.reason).toBe(NO_WEBASSEMBLY);
      expect(choice.reason).toContain(NO_WEBASSEMBLY);
      expect(JSON.stringify(choice)).not.toContain('SIMD');
    } finally {
      Object.defineProperty(globalThis, 'WebAssembly', saved);
    }
  });
});
