// The speed targets, paired in one run (`npm run bench -- targets`): Node's workshop, the training
// worker in Chromium and in Firefox (the same build, WASM forced), and the PyTorch CPU peer of the
// workshop (`--peer path/to/torch_ref.py`, which lives outside this repository) on the same workshop.
// Per engine: the stepping time (the page's first GRPO point → the run's end, the page's clock),
// the worker's own sum of its steps' timings, per-phase medians (the records' time split), and
// 40 steps from page load on the real plate page (navigation start → "Finished"). --runs N runs
// the workshop N times in one page (and one Node process): the first is the target's (a cold
// worker, as a reader gets it); the later ones show what a warm engine does (JIT tier-up).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser as ChromiumBrowser } from 'playwright-core';
import type { Browser as FirefoxBrowser } from 'puppeteer-core';
import type { KernelsMode } from '../../src/protocol/backends';
import type { GrpoStepView } from '../../src/protocol/episode-view';
import type { PipelineBench } from './browser';
import { benchNode, type NodeBench } from './node';
import { phaseMedians, timeSplitMedians, type PhaseMedians, type SplitMedians } from './stats';
import { arithmeticProbe, type ArithmeticBench } from './arithmetic';
import { launch } from '../../test/browser/chromium';
import { launchFirefox } from '../../test/browser/firefox';
import { buildPage } from '../../test/browser/page-site';
import { buildSite, serve, stopServing } from '../../test/browser/site';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';

const ROOT = resolve(import.meta.dirname, '../..');
const PYTHON = '/usr/bin/python3'; // Debian's, with python3-torch (not a pyenv shim)

type Engine = 'chromium' | 'firefox';

interface EngineBench {
  engine: Engine;
  steps: number;
  /** The harness page's first GRPO point → the run's end, by the page's clock (s), per run in one page. */
  steppingSeconds: number[];
  /** The worker's own sum of its steps' timings, steps ≥ 1 (s), per run: stepping less this is time outside the steps. */
  computeSeconds: number[];
  phases: PhaseMedians;
  split: SplitMedians;
  /** Median step time over the first run's first and last ten steps (ms): a JIT still warming shows as first > last. */
  firstTenMs: number;
  lastTenMs: number;
  /** Each step's own time (ms), steps ≥ 1, run after run. */
  stepMs: number[];
  /** The plate page, `steps` steps with autorun: navigation start → "Finished" (s). */
  fromLoadSeconds: number;
  /**
   * A reader who reads before pressing Run: the harness waits for the worker's idle warm-up to
   * end (worker/warm-up.ts), then runs `steps` steps. warmUpMs: what the warm-up took.
   */
  readFirst?: { warmUpMs: number; steppingSeconds: number; firstTenMs: number; lastTenMs: number };
  /** The engine on plain arithmetic in the served plate page (arithmetic.ts): tells a slow engine from a slow page. */
  arithmetic?: ArithmeticBench;
  error?: string;
}

export interface PeerBench {
  /** torch_ref.py's total_s: its 40 steps and 41 evaluations (start-up and fine-tune excluded). */
  totalSeconds: number;
  stepMs: number;
  command: string;
}

export interface TargetsBench {
  steps: number;
  /** One per run, in one process. */
  node: NodeBench[];
  /** Node on the same arithmetic as the engines. */
  nodeArithmetic: ArithmeticBench;
  engines: EngineBench[];
  /** null: ../shared/peer is absent (said in the output). */
  peer: PeerBench | null;
  peerMissing?: string;
}

/** The calls the bench makes on a page, the same for playwright's Chromium and puppeteer's Firefox. */
export interface AnyPage {
  goto(url: string): Promise<unknown>;
  evaluate<R, A>(f: (arg: A) => R, arg: A): Promise<R>;
  /** Waits for `f(arg)` to be truthy in the page; returns its value. */
  until<R, A>(f: (arg: A) => R, arg: A, timeoutMs: number): Promise<R>;
  close(): Promise<void>;
}

export async function chromiumPage(browser: ChromiumBrowser): Promise<AnyPage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } }); // a laptop's screen, as Firefox's window
  return {
    goto: (url) => page.goto(url),
    evaluate: (f, arg) => page.evaluate(f as never, arg) as never,
    until: async (f, arg, timeout) => (await page.waitForFunction(f as never, arg, { timeout, polling: 20 })).jsonValue() as never,
    close: () => page.close(),
  };
}

export async function firefoxPage(browser: FirefoxBrowser): Promise<AnyPage> {
  const page = await browser.newPage();
  // No setViewport: this Firefox refuses the screen-orientation override puppeteer sends with it; fromLoad scrolls the figure into view.
  return {
    goto: (url) => page.goto(url),
    evaluate: (f, arg) => page.evaluate(f as never, arg) as never,
    until: async (f, arg, timeout) => (await (page.waitForFunction as (...a: unknown[]) => Promise<{ jsonValue(): Promise<unknown> }>)(f, { timeout, polling: 20 }, arg)).jsonValue() as never,
    close: () => page.close(),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;

/**
 * The harness page: `runs` runs of `steps` GRPO steps on wasm, one after another, each timed by
 * the page from its first point to its end. The first run's start is sent while the worker
 * loads, so it waits in the worker's queue and the worker never warms up while idle: a cold
 * engine, as Node's workshop has it. readFirst: wait for the idle warm-up to end first instead.
 * kernels: the worker's model kernels ('unfused': the harness's ?kernels=unfused, which starts the
 * worker from its script URL with that switch; default the worker's own, fused).
 */
export async function stepping(page: AnyPage, harnessUrl: string, steps: number, runs: number, readFirst = false, kernels?: KernelsMode) {
  await page.goto(`${harnessUrl}?backend=wasm${kernels ? `&kernels=${kernels}` : ''}`);
  if (readFirst) await page.until(() => window.plateWorker?.ready?.warmUp || window.plateWorker?.status === 'error', null, 120_000);
  else await page.until(() => window.plateWorker !== undefined, null, 120_000);
  const records: GrpoStepView[] = [];
  const steppingSeconds: number[] = [];
  const computeSeconds: number[] = [];
  for (let n = 0; n < runs; n++) {
    const before = await page.evaluate(() => window.plateWorker?.run?.runId ?? 0, null);
    await page.evaluate(({ k, plate }) => window.plateWorker!.start({ ...plate, seed: 1, steps: k }), { k: steps, plate: PLATE_SETTINGS });
    const t = await page.until((prev): { firstPoint?: number; end?: number } | { error: unknown } | null => {
      const id = window.plateWorker?.run?.runId;
      const times = id === undefined || id === prev ? undefined : window.plateTimes[id];
      return times?.end !== undefined && times.firstPoint !== undefined ? times : window.plateWorker?.status === 'error' ? { error: window.plateWorker.error?.message } : null;
    }, before, 600_000);
    if (t === null || 'error' in t) throw new Error(String(t?.error));
    const run = await page.evaluate(() => JSON.parse(JSON.stringify(window.plateWorker!.run!.steps)) as GrpoStepView[], null);
    records.push(...run);
    steppingSeconds.push((t.end! - t.firstPoint!) / 1000);
    computeSeconds.push(timeSplitMedians(run).sumMs / 1000);
  }
  const totals = records.filter((r) => r.step >= 1).map((r) => r.timings.total);
  return {
    steppingSeconds,
    computeSeconds,
    warmUpMs: await page.evaluate(() => window.plateWorker?.ready?.warmUp?.ms ?? NaN, null),
    /** What the worker said it ran. */
    kernels: await page.evaluate(() => window.plateWorker?.ready?.kernels ?? null, null),
    phases: phaseMedians(records),
    split: timeSplitMedians(records),
    firstTenMs: median(totals.slice(0, 10)),
    lastTenMs: median(totals.slice(steps - 10, steps)),
    stepMs: totals.map((x) => Math.round(x)),
  };
}

/** The real plate page with autorun: seconds from navigation start to "Finished". */
export async function fromLoad(page: AnyPage, plateUrl: string, steps: number): Promise<number> {
  await page.goto(`${plateUrl}index.html?backend=wasm&autorun=1&steps=${steps}`);
  // The page pauses training while the figure is out of sight.
  await page.evaluate(() => document.querySelector('.plate-figure')?.scrollIntoView(), null);
  const ms = await page.until(() => document.querySelector('.status-word')?.textContent === 'Finished' && performance.now(), null, 600_000);
  return (ms as number) / 1000;
}

async function benchEngine(engine: Engine, open: () => Promise<AnyPage>, urls: { harness: string; plate: string }, steps: number, runs: number): Promise<EngineBench> {
  console.log(`${engine}: stepping (${runs} × ${steps} steps), after an idle warm-up, then ${steps} steps from page load…`);
  const empty = { engine, steps, steppingSeconds: [], computeSeconds: [], phases: phaseMedians([]), split: timeSplitMedians([]), firstTenMs: NaN, lastTenMs: NaN, stepMs: [], fromLoadSeconds: NaN };
  let page = await open();
  try {
    const { warmUpMs: _, kernels: _k, ...s } = await stepping(page, urls.harness, steps, runs);
    await page.close();
    page = await open();
    const r = await stepping(page, urls.harness, steps, 1, true);
    const readFirst = { warmUpMs: r.warmUpMs, steppingSeconds: r.steppingSeconds[0]!, firstTenMs: r.firstTenMs, lastTenMs: r.lastTenMs };
    await page.close();
    page = await open();
    const fromLoadSeconds = await fromLoad(page, urls.plate, steps);
    // In the page just served (an about:blank page may run at full speed where a served one does not).
    const arithmetic = await page.evaluate(arithmeticProbe, null);
    return { engine, steps, ...s, readFirst, fromLoadSeconds, arithmetic };
  } catch (e) {
    return { ...empty, error: (e as Error).message.split('\n')[0] };
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** The PyTorch peer (`torch_ref.py`) at the model's size, one thread; null if the file is absent. */
export async function benchPeer(peer: string): Promise<PeerBench | null> {
  if (!existsSync(peer)) return null;
  const args = [peer, '--kv-cache', '--threads', '1', '--n-layer', '2', '--d', '64', '--n-head', '4', '--ctx', '32'];
  console.log('PyTorch peer…');
  const out = await new Promise<string>((ok, fail) => {
    const p = spawn(PYTHON, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    p.stdout.on('data', (d: Buffer) => (text += d.toString()));
    p.on('error', fail);
    p.on('close', (code) => (code === 0 ? ok(text) : fail(new Error(`torch_ref.py exited with ${code}`))));
  });
  const summary = out.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>).find((o) => o.summary);
  if (!summary) throw new Error('torch_ref.py printed no summary line');
  return { totalSeconds: Number(summary.total_s), stepMs: Number(summary.ms_step_median), command: [PYTHON, ...args.map((a) => a.replace(ROOT + '/', ''))].join(' ') };
}

/** Chromium and Firefox on the same two sites (built once), one engine after the other. */
async function benchEngines(steps: number, runs: number): Promise<EngineBench[]> {
  const [harnessDir, pageDir] = [await buildSite(), await buildPage()];
  const [harness, plate] = [await serve(harnessDir), await serve(pageDir)];
  const urls = { harness: harness.url, plate: plate.url };
  try {
    const engines: EngineBench[] = [];
    const chromium = await launch();
    try {
      engines.push(await benchEngine('chromium', () => chromiumPage(chromium), urls, steps, runs));
    } finally {
      await chromium.close();
    }
    const firefox = await launchFirefox();
    try {
      engines.push(await benchEngine('firefox', () => firefoxPage(firefox), urls, steps, runs));
    } finally {
      await firefox.close();
    }
    return engines;
  } finally {
    await stopServing({ ...harness, dir: harnessDir }, { ...plate, dir: pageDir });
  }
}

/** Node's workshop right before the browsers (paired: the machine's load drifts over a long bench), then the peer. */
export async function benchTargets(opts: { steps: number; runs: number; peer: string | null }): Promise<TargetsBench> {
  console.log(`node wasm: ${opts.runs} × ${opts.steps} steps…`);
  const node: NodeBench[] = [];
  for (let n = 0; n < opts.runs; n++) node.push(await benchNode('wasm', opts.steps));
  const nodeArithmetic = arithmeticProbe();
  const engines = await benchEngines(opts.steps, opts.runs);
  const peer = opts.peer ? await benchPeer(opts.peer) : null;
  const peerMissing = opts.peer ? `${opts.peer} is absent: no peer line` : 'not run: pass --peer path/to/torch_ref.py (the PyTorch CPU peer of the workshop) to compare';
  return { steps: opts.steps, node, nodeArithmetic, engines, peer, ...(!peer && { peerMissing }) };
}

// ——— the report ———

interface Target {
  what: string;
  measured: string;
  met: boolean | null;
}

const s1 = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} s` : '—');
const ratio = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '—');
const verdict = (ok: boolean | null) => (ok === null ? 'not measured' : ok ? 'met' : 'NOT met');

/** The speed targets (docs/performance.md), each with the figure this run measured. */
function targets(t: TargetsBench, pipeline: PipelineBench | null): Target[] {
  const out: Target[] = [];
  const check = (what: string, x: number, limit: number, show: (x: number) => string) =>
    out.push({ what, measured: show(x), met: Number.isFinite(x) ? x <= limit : null });
  // The first run of each: a cold engine, as a reader's page gets it.
  const nodeS = t.node[0]?.steppingSeconds ?? NaN;
  for (const e of t.engines) {
    const s = e.steppingSeconds[0] ?? NaN;
    check(`${e.engine} stepping (first point → end) ≤ 1.25× Node's workshop (${s1(nodeS)})`, s / nodeS, 1.25, (r) => `${s1(s)}, ${ratio(r)}`);
  }
  const chromium = t.engines.find((e) => e.engine === 'chromium');
  const firefox = t.engines.find((e) => e.engine === 'firefox');
  check(`Chromium: ${t.steps} GRPO steps from page load ≤ 5 s`, chromium?.fromLoadSeconds ?? NaN, 5, s1);
  if (t.peer) {
    check(`Chromium from load ≤ 0.30× the PyTorch peer (${s1(t.peer.totalSeconds)})`, (chromium?.fromLoadSeconds ?? NaN) / t.peer.totalSeconds, 0.3, ratio);
  } else out.push({ what: 'Chromium from load ≤ 0.30× the PyTorch peer', measured: t.peerMissing ?? 'peer not run', met: null });
  check(`Firefox: ${t.steps} GRPO steps from page load ≤ 6 s`, firefox?.fromLoadSeconds ?? NaN, 6, s1);
  check('fine-tuning 200 steps in the Chromium worker ≤ 10 s', pipeline?.compute.sft ?? NaN, 10, s1);
  check('pre-training 100 steps in the Chromium worker ≤ 6 s', pipeline?.compute.pretrain ?? NaN, 6, s1);
  check('random weights → end (from Run) ≤ 25 s', pipeline?.wall.done ?? NaN, 25, s1);
  const task = pipeline?.longestTaskMs;
  const long = pipeline?.longTasksMs ?? [];
  out.push({ what: 'no main-thread task > 50 ms during a run from random weights', measured: task === undefined ? '—' : task > 0 ? `longest ${task.toFixed(0)} ms; ${long.length} over 50 ms (${long.join(', ')})` : 'none over 50 ms', met: task === undefined ? null : task === 0 });
  return out;
}

export function targetLines(t: TargetsBench, pipeline: PipelineBench | null): string[] {
  const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(0).padStart(4) : '   —');
  const secs = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' / ') + ' s';
  const row = (name: string, stepping: number[], compute: number[], p: PhaseMedians, sp: SplitMedians, extra: string) =>
    `  ${name.padEnd(9)} stepping ${secs(stepping)}  in steps ${secs(compute)}  outside ${stepping.map((x, i) => ((x - compute[i]!) * 1000).toFixed(0)).join(' / ')} ms  step ${ms(p.total)}  sampling ${ms(sp.sampling)}  update ${ms(sp.update)}  evaluation ${ms(sp.evaluation)}  ${extra}`;
  const runs = t.node.length;
  const lines = [`
the browser against Node, paired (${runs} run${runs > 1 ? 's' : ''} of ${t.steps} GRPO steps on wasm, one after another in one page / process; ms: medians of steps ≥ 1 from the records' time split; "outside": stepping less the steps' own timings)`];
  const nodeRecords = { phases: t.node[0]!.phases, split: t.node[0]!.split };
  lines.push(row('node', t.node.map((n) => n.steppingSeconds), t.node.map((n) => n.split.sumMs / 1000), nodeRecords.phases, nodeRecords.split, '(first run)'));
  for (const e of t.engines) {
    lines.push(e.error ? `  ${e.engine}: ${e.error}` : row(e.engine, e.steppingSeconds, e.computeSeconds, e.phases, e.split, `first/last ten steps of the first run ${ms(e.firstTenMs)}/${ms(e.lastTenMs)} ms; from page load ${s1(e.fromLoadSeconds)}`));
  }
  const loops = (name: string, a: ArithmeticBench, step: number) =>
    `  ${name.padEnd(9)} plain arithmetic: a float multiply-add loop of 2×10⁷ ${a.floatLoopMs} ms, an integer loop of 10⁸ ${a.intLoopMs} ms; beside a GRPO step of ${ms(step).trim()} ms`;
  lines.push('\neach engine on plain arithmetic (a slow float loop is the engine\'s; a slow step beside a fast loop is the page\'s)');
  lines.push(loops('node', t.nodeArithmetic, t.node[0]!.phases.total));
  for (const e of t.engines) if (e.arithmetic) lines.push(loops(e.engine, e.arithmetic, e.phases.total));
  for (const e of t.engines) {
    const r = e.readFirst;
    if (r) lines.push(`  ${e.engine.padEnd(9)} after an idle warm-up of ${(r.warmUpMs / 1000).toFixed(2)} s (a reader who reads before Run): stepping ${s1(r.steppingSeconds)}, first/last ten steps ${ms(r.firstTenMs)}/${ms(r.lastTenMs)} ms`);
  }
  // The absolute targets were set when Node's workshop stepped in 84–99 ms: this
  // machine's speed drifts by more than that between sessions, so say where it stands today.
  const nodeStep = t.node[0]?.phases.total ?? NaN;
  lines.push(`  the machine in this run: Node's step ${ms(nodeStep).trim()} ms against 84–99 ms when the targets were set (${ratio(nodeStep / 91.5)}): the absolute targets below were written for that speed`);
  lines.push(t.peer ? `  PyTorch peer (${t.peer.command}): ${s1(t.peer.totalSeconds)}, ${t.peer.stepMs.toFixed(0)} ms a step` : `  PyTorch peer: ${t.peerMissing ?? 'not run'}`);
  lines.push('\nthe speed targets (stepping: each engine\'s first run)');
  for (const x of targets(t, pipeline)) lines.push(`  ${verdict(x.met).padEnd(12)} ${x.what}: ${x.measured}`);
  return lines;
}
