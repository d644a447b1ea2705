// The backends in the training worker, in real headless Chromium (the harness, a built copy served
// under a sub-path): the choice and its reasons, the race with ?calibrate=all, a run on each of
// WASM, CPU (paused and resumed: its steps take seconds) and the software WebGPU adapter, and a
// browser fine-tune that writes Node's bits.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_RECIPE, CHECKPOINTS } from '../../src/config';
import { RACE_KEY } from '../../src/client/race-store';
import { consistent, harnessBrowser } from './worker-helpers';

const ROOT = resolve(import.meta.dirname, '../..');
const { ready, note } = harnessBrowser();

describe('the training worker’s backends', () => {
  it('starts, picks WASM over a software-only GPU and says why', async () => {
    const h = await ready();
    const s = await h.state();
    expect(s.status).toBe('ready');
    expect(s.ready!.backend).toBe('wasm');
    expect(s.ready!.kernels).toBe('fused'); // the fused module runs on the browser's WASM heap
    expect(s.ready!.reason).toMatch(/software/);
    expect(s.ready!.skipped.map((k) => k.backend)).toEqual(['webgpu', 'webgl']);
    for (const k of s.ready!.skipped) expect(k.reason).toMatch(/^software/);
    expect(s.ready!.checkpointHeldOut).toBeGreaterThan(0);
    // StrictMode mounted the hook twice; the first worker was terminated.
    expect(h.page.workers()).toHaveLength(1);
  });

  it('runs tfjs’s own ops on WASM when its script URL says ?kernels=unfused (the bench’s switch), and says so', async () => {
    const h = await ready('?backend=wasm&kernels=unfused');
    const s = await h.state();
    expect(s.ready).toMatchObject({ backend: 'wasm', kernels: 'unfused' });
    expect(h.page.workers()[0]!.url()).toMatch(/[?&]kernels=unfused/);
  });

  it('with ?calibrate=all races the software GPUs too, measures each, keeps WASM, trains there and leaves no tensors behind', async () => {
    const plain = await ready();
    await plain.start({ steps: 1 });
    const p = await plain.until((t) => t.status === 'done');
    const t0 = Date.now();
    const h = await ready('?calibrate=all');
    const raceSeconds = (Date.now() - t0) / 1000;
    const s = await h.state();
    expect(s.ready!.backend).toBe('wasm');
    // Both GPUs were started on their software adapters and timed (cut once clearly slower).
    expect(s.ready!.reason).toMatch(
      /^WASM \(SIMD, one thread\): the fastest of the 3 backends timed on a calibration step here \(WASM \(SIMD, one thread\) \d+ ms · /,
    );
    expect(s.ready!.reason).toMatch(/WebGPU on a software adapter, [^·]*\d+ ms/);
    expect(s.ready!.reason).toMatch(/WebGL on [^·]*\d+ ms/);
    expect(s.ready!.skipped.map((k) => k.backend).sort()).toEqual(['webgl', 'webgpu']);
    for (const k of s.ready!.skipped)
      expect(k.reason).toMatch(/\d+ ms.*, already clearly slower than WebAssembly’s \d+ ms$/);
    expect(await h.page.evaluate((key) => localStorage.getItem(key), RACE_KEY)).toBeNull(); // 'all' keeps nothing
    await h.start({ steps: 1 });
    const done = await h.until((t) => t.status === 'done');
    // Calibration's tensors are gone: the run ends holding what a run without a race holds.
    expect(done.memory!.numTensors).toBe(p.memory!.numTensors);
    console.log(`?calibrate=all in Chromium: ready after ${raceSeconds.toFixed(1)} s — ${s.ready!.reason}`);
  }, 240_000);

  it('fine-tunes the shipped worksheet model at the shipped seed into the shipped agent, bit for bit', async () => {
    const card = JSON.parse(readFileSync(resolve(ROOT, 'public', CHECKPOINTS.agent, 'manifest.json'), 'utf8')).card;
    const h = await ready('?backend=wasm');
    await h.start({ start: 'pretrained', seed: AGENT_RECIPE.sftSeed, steps: 1 });
    const s = await h.until((t) => t.status === 'done', 120_000);
    expect(s.run!.agentDigest).toBe(card.weightsDigest); // the same bits as `npm run train:agent` wrote in Node
    expect(s.run!.sftHeldOut).toBe(card.success.heldOut);
    expect(s.run!.steps[0]!.heldOut).toBe(card.success.heldOut);
  }, 240_000);

  it('runs on ?backend=cpu, where “pausing” shows at once while the step in flight finishes, and a resumed run streams on with no gap', async () => {
    const h = await ready('?backend=cpu'); // seconds per step: time to see "pausing"
    const s0 = await h.state();
    expect(s0.ready!.backend).toBe('cpu');
    expect(s0.ready!.reason).toMatch(/asked for/);
    await h.start({ steps: 3 });
    await h.until((t) => (t.run?.steps.length ?? 0) >= 1); // step 1 is on the way
    await h.call('pause');
    // At once: the page says "pausing" while the step in flight finishes (seconds on this backend),
    // before the worker's "paused". Waiting for either and finding "pausing" shows the order, on a
    // machine of any speed.
    const pausing = await h.until((t) => t.status === 'pausing' || t.status === 'paused');
    expect(pausing.status).toBe('pausing');
    const paused = await h.until((t) => t.status === 'paused');
    expect(paused.run!.steps.length).toBeLessThan(4); // a step is left to resume
    await h.call('resume');
    await h.until((t) => t.status === 'running');
    const s = await h.until((t) => t.status === 'done', 120_000);
    expect(s.run!.steps).toHaveLength(4);
    s.run!.steps.forEach(consistent);
    note('cpu', s.run!.steps);
  }, 240_000);

  it('runs a step on ?backend=webgpu with the software adapter, reading back with data()', async () => {
    const h = await ready('?backend=webgpu');
    const s0 = await h.state();
    expect(s0.ready!.backend).toBe('webgpu');
    expect(s0.ready!.reason).toMatch(/software adapter/);
    await h.start({ steps: 1 });
    // A software adapter takes ~40 s a step on a quiet 2-core machine, over 110 s beside another
    // browser file, and 217 s once on a machine other jobs kept busy: the bound is for a worker
    // that never ends, not for a slow one.
    const s = await h.until((t) => t.status === 'done', 450_000);
    s.run!.steps.forEach(consistent);
    // dataSync() on this backend returned zeros in our probe: a real held-out score shows it did not,
    // and tfjs-webgpu warns on any synchronous readback (ours or inside an op): there is none.
    expect(s.run!.steps[0]!.heldOut).toBeGreaterThan(0);
    expect(h.console.filter((line) => line.includes('synchronously reading data'))).toEqual([]);
    note('webgpu', s.run!.steps);
  }, 480_000);
});
