// The training worker in real headless Chromium (a built copy, served under a sub-path): backend
// choice, the step stream, pause/resume/reset/configure through the hook, broken checkpoints,
// the tensor count, and the same numbers as the Node workshop. Per-step times are printed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AGENT_RECIPE, CHECKPOINTS, GRPO } from '../../src/config';
import { batchAdvantages } from '../../src/rl/advantages';
import { type BackendName, type GrpoStepView, type WorkerEvent } from '../../src/protocol/messages';
import { PLATE_SETTINGS } from '../../src/pipeline/stages';
import { RACE_KEY } from '../../src/client/race-store';
import { launch, openHarness, type Harness } from '../../scripts/lib/browser/chromium';

const ROOT = resolve(import.meta.dirname, '../..');
const site = inject('siteUrl');
let browser: Browser;
const stepMs: Partial<Record<BackendName, number[]>> = {};

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  const line = Object.entries(stepMs).map(([b, ms]) => `${b} ${ms.map((m) => m.toFixed(0)).join('/')} ms`);
  if (line.length) console.log(`per-step time in the Chromium worker (steps ≥ 1): ${line.join('; ')}`);
});

/** Opens the harness and waits for the worker to be ready (or to fail). */
async function ready(query = ''): Promise<Harness> {
  const h = await openHarness(browser, site, query);
  await h.until((s) => s.status !== 'loading');
  return h;
}

/**
 * A step as it crossed from the worker, checked against its own parts: the counts against its
 * episodes, the reward against their rewards, each group's advantages against the group-relative
 * formula, and the loss against −Σ advantage · trained characters / all trained characters (with
 * one update per batch the ratio is 1). A worker that trained with other settings, dropped a term
 * or garbled a record fails here, whatever backend computed it.
 */
function consistent(r: GrpoStepView, i: number): void {
  expect(r.step).toBe(i);
  expect(r.heldOutCorrect / r.heldOutN).toBeCloseTo(r.heldOut, 10);
  if (i === 0) {
    expect(r.meanReward).toBeNull();
    return expect(r.episodes).toEqual([]);
  }
  const eps = r.episodes;
  expect(eps).toHaveLength(GRPO.sumsPerStep * GRPO.episodesPerSum);
  expect(r.meanReward).toBeCloseTo(eps.reduce((t, e) => t + e.reward, 0) / eps.length, 10);
  const count = (test: (e: (typeof eps)[number]) => boolean) => eps.filter(test).length;
  const chars = (code: string, of: string) => eps.reduce((n, e) => n + [...(of === 'trained' ? e.trained : e.authors)].filter((c) => c === code).length, 0);
  expect([r.modelChars, r.envChars, r.trainedChars]).toEqual([chars('m', 'authors'), chars('e', 'authors'), chars('1', 'trained')]);
  expect([r.lies, r.malformed]).toEqual([count((e) => e.lied), count((e) => e.reason !== 'answered')]);
  const expected = batchAdvantages(eps.map((e) => e.reward), GRPO.episodesPerSum, GRPO);
  eps.forEach((e, k) => expect(e.advantage).toBeCloseTo(expected[k]!, 5));
  const pushed = eps.reduce((t, e) => t + e.advantage * [...e.trained].filter((c) => c === '1').length, 0);
  expect(r.loss).toBeCloseTo(-pushed / r.trainedChars, 4);
  expect(r.timings.total).toBeGreaterThan(0);
}

const note = (backend: BackendName, steps: GrpoStepView[]) =>
  (stepMs[backend] = steps.filter((r) => r.step > 0).map((r) => r.timings.total));

describe('the training worker, through the useTrainingWorker hook', () => {
  it('starts, picks WASM over a software-only GPU and says why', async () => {
    const h = await ready();
    const s = await h.state();
    expect(s.status).toBe('ready');
    expect(s.ready!.backend).toBe('wasm');
    expect(s.ready!.reason).toMatch(/software/);
    expect(s.ready!.skipped.map((k) => k.backend)).toEqual(['webgpu', 'webgl']);
    for (const k of s.ready!.skipped) expect(k.reason).toMatch(/^software/);
    expect(s.ready!.checkpointHeldOut).toBeGreaterThan(0);
    // StrictMode mounted the hook twice; the first worker was terminated.
    expect(h.page.workers()).toHaveLength(1);
    await h.page.close();
  });

  it('with ?calibrate=all races the software GPUs too, measures each, keeps WASM, trains there and leaves no tensors behind', async () => {
    const plain = await ready();
    await plain.start({ steps: 1 });
    const p = await plain.until((t) => t.status === 'done');
    await plain.page.close();
    const t0 = Date.now();
    const h = await ready('?calibrate=all');
    const raceSeconds = (Date.now() - t0) / 1000;
    const s = await h.state();
    expect(s.ready!.backend).toBe('wasm');
    // Both GPUs were started on their software adapters and timed (cut once clearly slower).
    expect(s.ready!.reason).toMatch(/^WASM \(SIMD, one thread\): the fastest of the 3 backends timed on a calibration step here \(WASM \(SIMD, one thread\) \d+ ms · /);
    expect(s.ready!.reason).toMatch(/WebGPU on a software adapter, [^·]*\d+ ms/);
    expect(s.ready!.reason).toMatch(/WebGL on [^·]*\d+ ms/);
    expect(s.ready!.skipped.map((k) => k.backend).sort()).toEqual(['webgl', 'webgpu']);
    for (const k of s.ready!.skipped) expect(k.reason).toMatch(/\d+ ms.*, already clearly slower than WebAssembly’s \d+ ms$/);
    expect(await h.page.evaluate((key) => localStorage.getItem(key), RACE_KEY)).toBeNull(); // 'all' keeps nothing
    await h.start({ steps: 1 });
    const done = await h.until((t) => t.status === 'done');
    // Calibration's tensors are gone: the run ends holding what a run without a race holds.
    expect(done.memory!.numTensors).toBe(p.memory!.numTensors);
    console.log(`?calibrate=all in Chromium: ready after ${raceSeconds.toFixed(1)} s — ${s.ready!.reason}`);
    await h.page.close();
  });

  it('streams a short run step by step with values consistent with their episodes, then a summary', async () => {
    const h = await ready();
    await h.start({ steps: 3 });
    const s = await h.until((t) => t.status === 'done');
    expect(s.run!.steps).toHaveLength(4);
    s.run!.steps.forEach(consistent);
    expect(s.run!.summary!.heldOutEnd).toBe(s.run!.steps[3]!.heldOut);
    expect(s.stepsPerSecond).toBeGreaterThan(0);
    note('wasm', s.run!.steps);
    await h.page.close();
  });

  it('says “pausing” at once, stops the stream on pause and continues it on resume', async () => {
    const h = await ready('?backend=cpu'); // seconds per step: time to see "pausing"
    await h.start({ steps: 40 });
    await h.until((t) => (t.run?.steps.length ?? 0) >= 2);
    await h.call('pause');
    await h.until((t) => t.status === 'pausing', 2000); // at once, while the step in flight finishes
    const paused = await h.until((t) => t.status === 'paused');
    const n = paused.run!.steps.length;
    await h.call('resume');
    await h.until((t) => t.status === 'running');
    const after = await h.page.waitForFunction((k) => window.plateWorker!.run!.steps.length >= k, n + 1, { timeout: 60_000 }).then(h.state);
    expect(after.run!.steps.map((r) => r.step)).toEqual(after.run!.steps.map((_, i) => i));
    await h.page.close();
  });

  it('starts again from step 0 after a reset, keeping the stopped run as a previous one', async () => {
    const h = await ready();
    await h.start({ steps: 40 });
    const before = await h.until((t) => (t.run?.steps.length ?? 0) >= 3);
    await h.call('reset');
    const reset = await h.until((t) => t.status === 'ready' && t.run === null);
    expect(reset.previous.at(-1)!.end).toBe('stopped');
    await h.start({ steps: 40 });
    const again = await h.until((t) => (t.run?.steps.length ?? 0) >= 2);
    expect(again.run!.steps[0]!.step).toBe(0);
    // The same checkpoint and seed give the same first steps.
    expect(again.run!.steps[1]!.meanReward).toBe(before.run!.steps[1]!.meanReward);
    await h.page.close();
  });

  it('restarts GRPO with the faulty calculator on configure, from the same agent, and keeps the finished run', async () => {
    const h = await ready();
    await h.start({ seed: 3, steps: 2 });
    await h.until((t) => t.status === 'done');
    await h.configure({ faulty: true, seed: 3, steps: 2 });
    const s = await h.until((t) => t.status === 'done' && t.run!.config.faulty);
    expect(s.run!.config).toEqual({ start: 'agent', seed: 3, steps: 2, ...PLATE_SETTINGS, faulty: true });
    expect(s.run!.from).toBe(s.previous.at(-1)!.runId);
    expect(s.run!.steps[0]!.heldOut).toBe(s.previous.at(-1)!.steps[0]!.heldOut);
    expect(s.previous.at(-1)!.end).toBe('done');
    expect(s.previous.at(-1)!.config.faulty).toBe(false);
    expect(s.run!.steps.slice(1).some((r) => r.lies > 0)).toBe(true);
    await h.page.close();
  });

  it('fine-tunes the shipped worksheet model at the shipped seed into the shipped agent, bit for bit', async () => {
    const card = JSON.parse(readFileSync(resolve(ROOT, 'public', CHECKPOINTS.agent, 'manifest.json'), 'utf8')).card;
    const h = await ready('?backend=wasm');
    await h.start({ start: 'pretrained', seed: AGENT_RECIPE.sftSeed, steps: 1 });
    const s = await h.until((t) => t.status === 'done', 120_000);
    expect(s.run!.agentDigest).toBe(card.weightsDigest); // the same bits as `npm run train:agent` wrote in Node
    expect(s.run!.sftHeldOut).toBe(card.success.heldOut);
    expect(s.run!.steps[0]!.heldOut).toBe(card.success.heldOut);
    await h.page.close();
  });

  it('runs on ?backend=cpu', async () => {
    const h = await ready('?backend=cpu');
    const s0 = await h.state();
    expect(s0.ready!.backend).toBe('cpu');
    expect(s0.ready!.reason).toMatch(/asked for/);
    await h.start({ steps: 2 });
    const s = await h.until((t) => t.status === 'done');
    s.run!.steps.forEach(consistent);
    note('cpu', s.run!.steps);
    await h.page.close();
  });

  it('runs a step on ?backend=webgpu with the software adapter, reading back with data()', async () => {
    const h = await ready('?backend=webgpu');
    const s0 = await h.state();
    expect(s0.ready!.backend).toBe('webgpu');
    expect(s0.ready!.reason).toMatch(/software adapter/);
    await h.start({ steps: 1 });
    const s = await h.until((t) => t.status === 'done', 110_000);
    s.run!.steps.forEach(consistent);
    // dataSync() on this backend returned zeros in our probe: a real held-out score shows it did not,
    // and tfjs-webgpu warns on any synchronous readback (ours or inside an op): there is none.
    expect(s.run!.steps[0]!.heldOut).toBeGreaterThan(0);
    expect(h.console.filter((line) => line.includes('synchronously reading data'))).toEqual([]);
    note('webgpu', s.run!.steps);
    await h.page.close();
  }, 120_000);

  it('reports a worker that dies with an error, and restartWorker brings up a fresh one', async () => {
    const h = await ready();
    const [worker] = h.page.workers();
    await worker!.evaluate(() => setTimeout(() => {
      throw new Error('boom');
    }));
    const dead = await h.until((t) => t.status === 'dead');
    expect(dead.error!.kind).toBe('worker');
    expect(dead.error!.message).toMatch(/boom/);
    await h.call('restartWorker');
    await h.until((t) => t.status === 'ready');
    await h.page.close();
  });

  it('notices a worker that stops mid-run without an error, within seconds', async () => {
    const h = await ready();
    await h.start({ steps: 40 });
    await h.until((t) => (t.run?.steps.length ?? 0) >= 3);
    const [worker] = h.page.workers();
    const t0 = Date.now();
    void worker!.evaluate(() => self.close()).catch(() => {}); // gone: no error event, no more messages
    const dead = await h.until((t) => t.status === 'dead', 20_000);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(dead.error!.message).toMatch(/sent nothing for \d+ s/);
    expect(dead.run!.steps.length).toBeGreaterThanOrEqual(3);
    await h.call('restartWorker');
    await h.until((t) => t.status === 'ready');
    await h.start({ steps: 1 });
    await h.until((t) => t.status === 'done');
    await h.page.close();
  });
});

describe('a broken checkpoint', () => {
  const cases: [string, string, RegExp][] = [
    ['a truncated weights.bin', 'truncated', /broken\/truncated\/weights\.bin: has 1000 bytes, the manifest needs \d+ \(truncated\)/],
    ['a manifest that is not JSON', 'bad-json', /broken\/bad-json\/manifest\.json: is not valid JSON/],
    ['a weight of the wrong shape', 'wrong-shape', /broken\/wrong-shape\/manifest\.json: weight "wte" has shape \[16,32\]/],
    ['a missing weights.bin', 'no-weights', /broken\/no-weights\/weights\.bin: is missing \(HTTP 404\)/],
    ['a missing folder', 'nowhere', /broken\/nowhere\/manifest\.json: is missing \(HTTP 404\)/],
  ];
  it.each(cases)('with %s gives a checkpoint error naming the file', async (_, folder, message) => {
    const h = await ready(`?checkpoint=broken/${folder}/`);
    const s = await h.state();
    expect(s.status).toBe('error');
    expect(s.error!.kind).toBe('checkpoint');
    expect(s.error!.message).toMatch(message);
    await h.page.close();
  });

  it('whose loss overflows stops the run at step 1 with a non-finite-loss error, keeping step 0', async () => {
    const h = await ready('?checkpoint=broken/overflowing/');
    await h.start({ steps: 3 });
    const s = await h.until((t) => t.status === 'error');
    expect(s.error!.kind).toBe('non-finite-loss');
    expect(s.error!.message).toMatch(/NaN at step 1/);
    expect(s.run!.steps.map((r) => r.step)).toEqual([0]);
    expect(s.run!.end).toBe('error');
    await h.page.close();
  });
});

describe('a worker driven by raw messages', () => {
  const config = { start: 'agent', seed: 5, steps: 4, ...PLATE_SETTINGS, faulty: true };
  let events: WorkerEvent[] = [];
  let warnings: string[] = [];

  beforeAll(async () => {
    const page = await browser.newPage();
    page.on('worker', (w) => w.on('console', (m) => m.type() === 'warning' && warnings.push(m.text())));
    await page.goto(site + '?backend=wasm');
    await page.evaluate(() => window.startRaw());
    // Garbage first: none of it may stop the worker from serving the real commands after it.
    await page.evaluate(() => {
      const w = window.raw!.worker;
      for (const m of [42, null, 'start', { type: 'explode' }, { type: 'start' }, { type: 'start', config: { faulty: 'yes', seed: 1, steps: 3 } }]) w.postMessage(m);
    });
    await page.evaluate((c) => {
      const w = window.raw!.worker;
      const folder = (p: string) => new URL(p, document.baseURI).href;
      w.postMessage({ type: 'init', checkpoints: { agent: folder('checkpoints/agent/'), pretrained: folder('checkpoints/pretrained/') }, wasm: window.wasm, backend: 'wasm' });
      w.postMessage({ type: 'start', config: c });
      // Pause after step 1 and resume once paused: nothing may stream in between.
      w.addEventListener('message', (e: MessageEvent<{ type: string; stage?: string; record?: { step: number } }>) => {
        if (e.data.type === 'step' && e.data.record!.step === 1) w.postMessage({ type: 'pause' });
        if (e.data.type === 'paused') w.postMessage({ type: 'resume' });
      });
    }, config);
    await page.waitForFunction(() => window.raw!.events.some((e) => e.type === 'done' || e.type === 'error'), undefined, { timeout: 60_000 });
    events = (await page.evaluate(() => window.raw!.events)).filter((e) => e.type !== 'alive');
    warnings = [...warnings];
    await page.close();
  });

  it('ignores malformed and unknown commands with a console warning', () => {
    expect(warnings.filter((w) => w.includes('ignored a malformed or unknown command'))).toHaveLength(6);
    const types = events.map((e) => e.type);
    expect(types.slice(0, 4)).toEqual(['loading', 'loading', 'ready', 'started']);
    expect(types.filter((t) => t === 'step')).toHaveLength(config.steps + 1);
    expect(types.at(-1)).toBe('done');
  });

  it('streams nothing between paused and resumed, whenever the pause lands', () => {
    const types = events.map((e) => e.type);
    const paused = types.indexOf('paused');
    expect(paused).toBeGreaterThan(types.indexOf('step')); // honoured after a step, never before step 0
    expect(types[paused + 1]).toBe('resumed');
    const steps = events.flatMap((e) => (e.type === 'step' ? [e.record.step] : []));
    expect(steps).toEqual([0, 1, 2, 3, 4]);
  });

  it('keeps tf.memory().numTensors flat across steps once the optimiser is warm', () => {
    const counts = events.flatMap((e) => (e.type === 'step' ? [e.memory.numTensors] : []));
    expect(counts).toHaveLength(config.steps + 1);
    // Step 1 creates Adam's moment variables; from then on every step leaves as many tensors.
    expect(counts.slice(1)).toEqual(Array<number>(config.steps).fill(counts[1]!));
  });

  it("gives the same held-out success and mean reward per step as the Node workshop on WASM", () => {
    const out = execFileSync('npx', ['tsx', 'scripts/workshop.ts', '--json', '--backend', 'wasm', '--faulty', '--seed', String(config.seed), '--steps', String(config.steps)], { cwd: ROOT, encoding: 'utf8' });
    const node = JSON.parse(out.trim().split('\n').at(-1)!) as { heldOut: number[]; meanReward: number[] };
    const steps = events.flatMap((e) => (e.type === 'step' && e.stage === 'grpo' ? [e.record] : []));
    expect(steps.map((r) => r.heldOut)).toEqual(node.heldOut);
    expect(steps.slice(1).map((r) => r.meanReward)).toEqual(node.meanReward);
  });
});
