// `npm run bench -- nojit`: the plate where JavaScript runs without its JIT and there is no
// WebAssembly (Safari's Lockdown Mode, Tor Browser's safer levels): Node's workshop under
// `node --jitless` on the cpu backend (a child process), then the harness page's worker in
// Chromium started with --js-flags=--jitless and in Firefox with its JITs and WebAssembly off.
// Per engine: the evaluation before the first step (step 0), each GRPO step and its split, and
// the longest stretch a step computed without a part to report (Node: model/parts.ts's parts);
// --cpu-steps N GRPO steps (1).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import type { GrpoStepView } from '../../src/protocol/episode-view';
import type { GrpoRecord } from '../../src/rl/grpo';
import type { EngineReport } from '../../src/protocol/backends';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import { runWorkshop } from '../../src/node/run-workshop';
import { launch } from '../../test/browser/chromium';
import { FIREFOX_NO_JIT, launchFirefox } from '../../test/browser/firefox';
import { timeSplitMedians, type SplitMedians } from './stats';
import type { AnyPage } from './targets';

interface EngineRun {
  engine: string;
  /** The held-out evaluation before the first step (ms). */
  step0Ms: number;
  /** Each step ≥ 1 (ms). */
  stepMs: number[];
  split: SplitMedians;
  /** Node only: the longest computing between two reports of a part (ms). */
  longestPartMs?: number;
  engineReport?: EngineReport;
  error?: string;
}

export interface NoJitBench {
  steps: number;
  runs: EngineRun[];
}

const CHILD = 'BENCH_NOJIT_CHILD';

/** In the child: the workshop on cpu, every part's gap timed. */
async function nodeRun(steps: number): Promise<EngineRun> {
  await tf.setBackend('cpu');
  let last = performance.now();
  let longestPartMs = 0;
  const { records } = await runWorkshop({ seed: 1, steps, start: 'agent' }, undefined, () => {
    const t = performance.now();
    longestPartMs = Math.max(longestPartMs, t - last);
    last = t;
    return undefined;
  });
  return summary('node --jitless', records, { longestPartMs: Math.round(longestPartMs) });
}

type Timed = Pick<GrpoRecord, 'step' | 'timings' | 'timeSplit'>;

function summary(engine: string, records: readonly Timed[], more: Partial<EngineRun> = {}): EngineRun {
  const ms = (r: Timed) => Math.round(r.timings.total);
  return {
    engine,
    step0Ms: ms(records[0]!),
    stepMs: records.filter((r) => r.step > 0).map(ms),
    split: timeSplitMedians(records),
    ...more,
  };
}

/** Node under --jitless, in a child process (the flag is the process's). */
function nodeChild(steps: number): Promise<EngineRun> {
  return new Promise((ok, fail) => {
    const p = spawn(process.execPath, ['--jitless', '--import', 'tsx', fileURLToPath(import.meta.url), String(steps)], {
      env: { ...process.env, [CHILD]: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('error', fail);
    p.on('close', (code) =>
      code === 0 ? ok(JSON.parse(out.trim().split('\n').at(-1)!) as EngineRun) : fail(new Error(`exited with ${code}`)),
    );
  });
}

/** The harness page's worker: its own backend choice (no WebAssembly: plain JavaScript), `steps` GRPO steps. */
async function pageRun(engine: string, page: AnyPage, harness: string, steps: number): Promise<EngineRun> {
  try {
    await page.goto(harness);
    await page.until(() => window.plateWorker?.status === 'ready' || window.plateWorker?.status === 'error', null, 300_000);
    const engineReport = await page.evaluate(() => window.plateWorker!.ready?.engine, null);
    await page.evaluate((c) => window.plateWorker!.start(c), { ...PLATE_SETTINGS, seed: 1, steps });
    await page.until(() => window.plateWorker?.status === 'done' || window.plateWorker?.status === 'error', null, 1_800_000);
    const run = await page.evaluate(() => JSON.parse(JSON.stringify(window.plateWorker!.run!.steps)) as GrpoStepView[], null);
    return summary(engine, run, { engineReport });
  } catch (e) {
    return { engine, step0Ms: NaN, stepMs: [], split: timeSplitMedians([]), error: (e as Error).message.split('\n')[0] };
  } finally {
    await page.close();
  }
}

export async function benchNoJit(steps: number): Promise<NoJitBench> {
  console.log(`node --jitless: ${steps} GRPO step(s)…`);
  const runs = [await nodeChild(steps)];
  // Here, not at the top: the child under --jitless loads this module, and Vite needs WebAssembly.
  const { buildSite, serve, stopServing } = await import('../../test/browser/site');
  const { chromiumPage, firefoxPage } = await import('./targets');
  const dir = await buildSite();
  const site = { ...(await serve(dir)), dir };
  try {
    console.log('Chromium --js-flags=--jitless…');
    const chromium = await launch(['--js-flags=--jitless']);
    runs.push(await pageRun('Chromium --jitless', await chromiumPage(chromium), site.url, steps));
    await chromium.close();
    console.log('Firefox, no JIT and no WebAssembly…');
    const firefox = await launchFirefox(FIREFOX_NO_JIT);
    runs.push(await pageRun('Firefox, no JIT', await firefoxPage(firefox), site.url, steps));
    await firefox.close();
  } finally {
    await stopServing(site);
  }
  return { steps, runs };
}

const s = (ms: number) => (ms / 1000).toFixed(1);

export function noJitLines(b: NoJitBench): string[] {
  return [
    'seconds: the evaluation before the first step, each step (sampling / update / evaluation, medians), the longest part',
    ...b.runs.map((r) =>
      r.error
        ? `  ${r.engine}: ${r.error}`
        : `  ${r.engine}: step 0 ${s(r.step0Ms)} s; steps ${r.stepMs.map(s).join(', ')} s (${s(r.split.sampling)} / ${s(r.split.update)} / ${s(r.split.evaluation)})` +
          (r.longestPartMs === undefined ? '' : `; longest part ${s(r.longestPartMs)} s`) +
          (r.engineReport ? `; WebAssembly ${r.engineReport.webAssembly}, JavaScript ${Math.round(r.engineReport.jsSlowdown ?? NaN)}× slower than with a JIT` : ''),
    ),
  ];
}

if (process.env[CHILD]) {
  console.log(JSON.stringify(await nodeRun(Number(process.argv[2]))));
  // At once: a module loaded here reaches for Node's fetch later, whose HTTP parser needs WebAssembly.
  process.exit(0);
}
