// `npm run bench -- browser`: the training worker in headless Chromium per backend (through the
// e2e harness page), the longest main-thread task on the real plate page while it trains, the
// pipeline from random weights, a soak run's tensors and heap, and the built chunks' gzip sizes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { launch, openHarness } from '../../test/browser/chromium';
import { buildPage } from '../../test/browser/page-site';
import { buildSite, removeSite, serve, stopServing } from '../../test/browser/site';
import type { BackendName } from '../../src/protocol/backends';
import type { WorkerState } from '../../src/client/worker-state';
import { runTasks, startAndTraining } from './long-tasks';
import { phaseRow, phaseTable } from './node';
import { phaseMedians, type PhaseMedians } from './stats';
import { GRPO } from '../../src/config';
import type { Stage } from '../../src/pipeline/stages';

interface BrowserBackendBench {
  backend: BackendName;
  steps: number;
  phases: PhaseMedians | null;
  workshopSeconds: number;
  tensors: { afterFirstStep: number; atEnd: number } | null;
  heapMB: { afterFirstStep: number; atEnd: number } | null;
  error?: string;
}

/** The whole pipeline from random weights in the Chromium worker on wasm (the pipeline's targets). */
export interface PipelineBench {
  /** Seconds from the start command to the last record of each stage, as the page saw them. */
  wall: { pretrain: number; sft: number; done: number };
  /** Seconds of computing per stage, as the worker timed them. */
  compute: Partial<Record<Stage, number>>;
  /** tf.memory().numTensors in the worker after each stage's first and last record. */
  tensors: Record<Stage, [number, number]>;
  /** The worker's JS heap after a default 40-step run, then after the run from random weights. */
  heapMB: { afterDefault: number | null; afterScratch: number | null };
  /** Longest main-thread task on the plate page during a run from random weights (0: none over 50 ms). */
  longestTaskMs: number;
  /** Every main-thread task over 50 ms during that run, longest first. */
  longTasksMs: number[];
  heldOut: { sft: number | null; end: number };
}

export interface BrowserBench {
  pipeline: PipelineBench | null;
  backends: BrowserBackendBench[];
  defaultBackend: string;
  defaultReason: string;
  /** Longest main-thread task (ms; 0 = none over 50 ms) while the page loaded and while it trained. */
  longestTaskMs: { loading: number; training: number };
  soak: { steps: number; tensors: number[]; heapMB: number[] } | null;
}

/** Steps per backend: the software GPUs here take seconds per step, so they get a short run. */
const STEPS: Record<BackendName, (full: number) => number> = { wasm: (n) => n, cpu: () => 3, webgl: () => 2, webgpu: () => 2 };
const TIMEOUT_MS: Record<BackendName, number> = { wasm: 180_000, cpu: 120_000, webgl: 180_000, webgpu: 240_000 };

/**
 * The training worker's used JS heap, through the DevTools protocol (workers have no
 * performance.memory): attach to the page's worker target, collect garbage, read the heap.
 */
export async function workerHeapMB(page: Page): Promise<number | null> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const attached = new Promise<string>((ok) =>
      cdp.on('Target.attachedToTarget', (e) => {
        if (e.targetInfo.type === 'worker') ok(e.sessionId);
      }),
    );
    await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    const sessionId = await Promise.race([attached, new Promise<null>((ok) => setTimeout(() => ok(null), 5000))]);
    if (!sessionId) return null;
    let id = 0;
    const call = (method: string) =>
      new Promise<Record<string, number>>((ok) => {
        const mine = ++id;
        cdp.on('Target.receivedMessageFromTarget', (e) => {
          const m = JSON.parse(e.message) as { id?: number; result?: Record<string, number> };
          if (e.sessionId === sessionId && m.id === mine) ok(m.result ?? {});
        });
        void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: mine, method }) });
      });
    await call('HeapProfiler.collectGarbage');
    const { usedSize } = await call('Runtime.getHeapUsage');
    return usedSize === undefined ? null : usedSize / 2 ** 20;
  } catch {
    return null;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

async function benchBackend(browser: Browser, url: string, backend: BackendName, full: number): Promise<BrowserBackendBench> {
  const steps = STEPS[backend](full);
  const h = await openHarness(await browser.newPage(), url, `?backend=${backend}`);
  try {
    const ready = await h.until((s) => s.status === 'ready' || s.status === 'error', 120_000);
    if (ready.status === 'error' || ready.ready?.backend !== backend) {
      return { backend, steps, phases: null, workshopSeconds: NaN, tensors: null, heapMB: null, error: ready.error?.message ?? `ran ${ready.ready?.backend}` };
    }
    const t0 = Date.now();
    await h.start({ faulty: false, seed: 1, steps });
    await h.until((s) => (s.run?.steps.length ?? 0) >= 2, TIMEOUT_MS[backend]);
    const firstHeap = await workerHeapMB(h.page);
    const firstTensors = (await h.state()).memory?.numTensors ?? 0;
    const done = await h.until((s) => s.status === 'done' || s.status === 'error', TIMEOUT_MS[backend]);
    const seconds = (Date.now() - t0) / 1000;
    const heap = await workerHeapMB(h.page);
    return {
      backend,
      steps,
      phases: phaseMedians(done.run?.steps ?? []),
      workshopSeconds: seconds * (full / steps),
      tensors: { afterFirstStep: firstTensors, atEnd: done.memory?.numTensors ?? 0 },
      heapMB: firstHeap === null || heap === null ? null : { afterFirstStep: firstHeap, atEnd: heap },
      ...(done.status === 'error' && { error: done.error?.message }),
    };
  } catch (e) {
    return { backend, steps, phases: null, workshopSeconds: NaN, tensors: null, heapMB: null, error: (e as Error).message.split('\n')[0] };
  } finally {
    await h.page.close();
  }
}

/** A long run on wasm: tensor count and worker heap every 50 steps. */
/**
 * A soak: `steps` GRPO steps as back-to-back runs of the plate's 40 in one worker (a run may not be
 * longer: the worker refuses a start past GRPO.steps), each from the same agent as Run after a
 * finished run is; the worker's tensors and heap after each run.
 */
async function soakRun(browser: Browser, url: string, steps: number) {
  const h = await openHarness(await browser.newPage(), url, '?backend=wasm');
  await h.until((s) => s.status === 'ready', 120_000);
  const runs = Math.ceil(steps / GRPO.steps);
  const tensors: number[] = [];
  const heapMB: number[] = [];
  for (let run = 0; run < runs; run++) {
    const seed = 2 + run; // each run its own seed, so its end is told from the one before
    await h.start({ faulty: false, seed, steps: GRPO.steps });
    const ended = new Function('s', `return s.status === 'done' && s.run.config.seed === ${seed}`) as (s: unknown) => boolean;
    const s = await h.until(ended, 600_000);
    tensors.push(s.memory?.numTensors ?? NaN);
    heapMB.push((await workerHeapMB(h.page)) ?? NaN);
  }
  await h.page.close();
  return { steps: runs * GRPO.steps, tensors, heapMB };
}

/**
 * The real page, training on wasm: the longest tasks the main thread ran (PerformanceObserver),
 * while the page loaded and while it trained (tasks that began with the status line at "Training").
 */
async function longestTasks(browser: Browser, url: string, steps: number, query = ''): Promise<{ loading: number; training: number; trainingTasks: number[] }> {
  // Tall enough that the figure is on screen: the page pauses training while it is out of sight.
  const page = await browser.newPage({ viewport: { width: 1280, height: 4000 } });
  const { start, training } = startAndTraining(await runTasks(page, `${url}index.html?backend=wasm&autorun=1&steps=${steps}${query}`));
  await page.close();
  return { loading: Math.max(0, ...start), training: Math.max(0, ...training), trainingTasks: training.sort((x, y) => y - x) };
}

/**
 * In the worker on wasm: a default run (from the shipped agent), then one from random weights
 * through pre-training and fine-tuning into GRPO, timed from the start command; the tensor count
 * at each stage's ends; the worker's heap after each run. Then the real page's longest main-thread
 * task during a run from random weights.
 */
async function pipelineRun(browser: Browser, harnessUrl: string, plateUrl: string, steps: number): Promise<PipelineBench> {
  const h = await openHarness(await browser.newPage(), harnessUrl, '?backend=wasm');
  try {
    await h.until((s) => s.status === 'ready', 120_000);
    await h.start({ steps });
    await h.until((s) => s.status === 'done', 300_000);
    const afterDefault = await workerHeapMB(h.page);
    const t0 = Date.now();
    await h.start({ start: 'scratch', steps });
    const tensors = { pretrain: [0, 0], sft: [0, 0], grpo: [0, 0] } as Record<Stage, [number, number]>;
    const wall = { pretrain: 0, sft: 0, done: 0 };
    const at = async (test: (s: WorkerState) => boolean) => (await h.until(test, 600_000)).memory?.numTensors ?? NaN;
    tensors.pretrain[0] = await at((s) => (s.run?.pretrain.length ?? 0) >= 1);
    tensors.pretrain[1] = await at((s) => (s.run?.pretrain.length ?? 0) >= 101);
    wall.pretrain = (Date.now() - t0) / 1000;
    tensors.sft[0] = await at((s) => (s.run?.sft.length ?? 0) >= 1);
    tensors.sft[1] = await at((s) => (s.run?.sft.length ?? 0) >= 201);
    wall.sft = (Date.now() - t0) / 1000;
    tensors.grpo[0] = await at((s) => (s.run?.steps.length ?? 0) >= 1);
    const done = await h.until((s) => s.status === 'done', 600_000);
    wall.done = (Date.now() - t0) / 1000;
    tensors.grpo[1] = done.memory?.numTensors ?? NaN;
    const afterScratch = await workerHeapMB(h.page);
    const longest = await longestTasks(browser, plateUrl, steps, '&start=scratch');
    return {
      wall, compute: done.run?.stageSeconds ?? {}, tensors, heapMB: { afterDefault, afterScratch }, longestTaskMs: longest.training, longTasksMs: longest.trainingTasks,
      heldOut: { sft: done.run?.sftHeldOut ?? null, end: done.run?.steps.at(-1)?.heldOut ?? NaN },
    };
  } finally {
    await h.page.close();
  }
}

export async function benchBrowser(opts: { steps: number; soak: number }): Promise<BrowserBench> {
  const harnessDir = await buildSite();
  const pageDir = await buildPage();
  const harness = await serve(harnessDir);
  const plate = await serve(pageDir);
  const browser = await launch();
  try {
    const probe = await openHarness(await browser.newPage(), harness.url);
    const ready = await probe.until((s) => s.status === 'ready' || s.status === 'error', 120_000);
    await probe.page.close();
    const backends: BrowserBackendBench[] = [];
    for (const b of ['wasm', 'cpu', 'webgl', 'webgpu'] as const) {
      console.log(`chromium ${b}…`);
      backends.push(await benchBackend(browser, harness.url, b, opts.steps));
    }
    console.log('longest main-thread task…');
    const longestTaskMs = await longestTasks(browser, plate.url, opts.steps);
    console.log('pipeline from random weights…');
    const pipeline = await pipelineRun(browser, harness.url, plate.url, opts.steps);
    console.log(opts.soak ? `soak (${opts.soak} steps)…` : '');
    const soak = opts.soak ? await soakRun(browser, harness.url, opts.soak) : null;
    return { pipeline, backends, defaultBackend: ready.ready?.backend ?? 'none', defaultReason: ready.ready?.reason ?? ready.error?.message ?? '', longestTaskMs, soak };
  } finally {
    await browser.close();
    await stopServing({ ...harness, dir: harnessDir }, { ...plate, dir: pageDir });
  }
}

/**
 * Builds the page and sums gzip sizes: the entry chunk(s), all of the worker's chunks, and what
 * the worker loads on the WASM path (its entry, their static imports, the WASM backend's chunk).
 */
export async function chunkSizes(): Promise<{ mainKB: number; workerKB: number; workerWasmPathKB: number; wasmKB: number; files: Record<string, number> }> {
  const dir = await buildPage();
  const assets = join(dir, 'assets');
  const files: Record<string, number> = {};
  let main = 0;
  let worker = 0;
  let wasm = 0;
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  for (const f of readdirSync(assets)) {
    const path = join(assets, f);
    const kb = (f.endsWith('.wasm') ? statSync(path).size : gzipSync(readFileSync(path)).length) / 1024;
    files[f] = kb;
    if (f.endsWith('.wasm')) wasm = f.includes('threaded') ? wasm : Math.max(wasm, kb);
    else if (html.includes(f)) main += kb; // what index.html loads before anything else
    else if (f.endsWith('.js')) worker += kb;
  }
  const text = (f: string) => readFileSync(join(assets, f), 'utf8');
  const imports = (f: string) => [...text(f).matchAll(/from\s*["'`]\.\/([^"'`]+\.js)["'`]/g)].map((m) => m[1]!);
  const entry = readdirSync(assets).find((f) => f.startsWith('training.worker') && f.endsWith('.js'))!;
  const wasmChunk = readdirSync(assets).find((f) => f.endsWith('.js') && f !== entry && text(f).includes('setWasmPaths'));
  const path = new Set<string>();
  const visit = (f: string) => {
    if (path.has(f)) return;
    path.add(f);
    imports(f).forEach(visit);
  };
  visit(entry);
  if (wasmChunk) visit(wasmChunk);
  const workerWasmPath = [...path].reduce((kb, f) => kb + files[f]!, 0);
  removeSite(dir);
  return { mainKB: main, workerKB: worker, workerWasmPathKB: workerWasmPath, wasmKB: wasm, files };
}

/** The pipeline from random weights alone (pipelineRun with its own sites and browser), for the targets mode. */
export async function benchPipeline(steps: number): Promise<PipelineBench> {
  const [harnessDir, pageDir] = [await buildSite(), await buildPage()];
  const [harness, plate] = [await serve(harnessDir), await serve(pageDir)];
  const browser = await launch();
  try {
    console.log('pipeline from random weights…');
    return await pipelineRun(browser, harness.url, plate.url, steps);
  } finally {
    await browser.close();
    await stopServing({ ...harness, dir: harnessDir }, { ...plate, dir: pageDir });
  }
}

export type ChunkSizes = Awaited<ReturnType<typeof chunkSizes>>;

export function browserLines(b: BrowserBench & { chunks: ChunkSizes }, steps: number): string[] {
  const rows = b.backends.map((x) =>
    phaseRow(`chromium ${x.backend}`, x.steps, steps, x.phases, x.error ? `(${x.error})` : x.workshopSeconds, x.tensors ? `${x.tensors.afterFirstStep}→${x.tensors.atEnd}` : '—', x.heapMB ? `${x.heapMB.afterFirstStep.toFixed(0)}→${x.heapMB.atEnd.toFixed(0)} MB` : '—'),
  );
  const task = (x: number) => (x > 0 ? `${x.toFixed(0)} ms` : 'none over 50 ms');
  const c = b.chunks;
  const lines = [
    ...phaseTable(rows),
    `\nchunks (gzip): main ${c.mainKB.toFixed(1)} KB; worker, all chunks ${c.workerKB.toFixed(1)} KB, on the WASM path ${c.workerWasmPathKB.toFixed(1)} KB (+ the .wasm, ${c.wasmKB.toFixed(1)} KB)`,
    `longest main-thread task on the plate page (wasm): while training ${task(b.longestTaskMs.training)}; while loading ${task(b.longestTaskMs.loading)}`,
  ];
  if (b.soak) lines.push(`soak, ${b.soak.steps} steps on wasm as runs of ${GRPO.steps}, after each: tensors ${b.soak.tensors.join(' → ')}, worker heap ${b.soak.heapMB.map((h) => h.toFixed(1)).join(' → ')} MB`);
  lines.push(`default backend here: ${b.defaultBackend} (${b.defaultReason})`);
  const pl = b.pipeline;
  if (pl) {
    const s = (x: number | undefined) => (x === undefined ? '—' : `${x.toFixed(1)} s`);
    lines.push(
      `\npipeline from random weights, Chromium worker on wasm: pre-training 100 steps ${s(pl.compute.pretrain)}, fine-tuning 200 steps ${s(pl.compute.sft)}, GRPO ${steps} steps ${s(pl.compute.grpo)} (worker's timing); ` +
        `from Run to the last GRPO step ${s(pl.wall.done)} (pre-training done at ${s(pl.wall.pretrain)}, fine-tuning at ${s(pl.wall.sft)})`,
      `  fine-tuned agent ${(100 * (pl.heldOut.sft ?? NaN)).toFixed(0)}% held-out, after GRPO ${(100 * pl.heldOut.end).toFixed(0)}%; tensors per stage (first → last record): ${Object.entries(pl.tensors).map(([k, [x, y]]) => `${k} ${x}→${y}`).join(', ')}`,
      `  worker heap after a default run ${pl.heapMB.afterDefault?.toFixed(1) ?? '—'} MB, after the run from random weights ${pl.heapMB.afterScratch?.toFixed(1) ?? '—'} MB; longest main-thread task during it: ${task(pl.longestTaskMs)}`,
    );
  }
  return lines;
}
