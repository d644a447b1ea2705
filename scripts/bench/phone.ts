// The plate page on a phone-class CPU: a 390 px touch screen in Chromium with its CPU throttled
// (the DevTools protocol's Emulation.setCPUThrottlingRate, 4× by default), `?steps=40&autorun=1`,
// each run in a fresh context as a first visit. It prints the longest main-thread task while the
// page starts (navigation until the status line first says "Training") and while it trains (until
// "Finished"), against the targets of 300 ms and 100 ms, and says PASS or FAIL for each. Then the
// floor: a page of React alone (scripts/bench/react-floor/), opened the same way, and its longest task.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { launch } from '../../test/browser/chromium';
import { buildPage } from '../../test/browser/page-site';
import { serve, stopServing } from '../../test/browser/site';
import { runTasks, startAndTraining, type RunTasks } from './long-tasks';
import { median } from './stats';

/** The targets: no task longer while the page starts, none longer while it trains (ms). */
const PHONE_TARGETS = { startMs: 300, trainingMs: 100 } as const;

interface PhoneRun extends RunTasks {
  longestMs: { start: number; training: number };
}

export interface PhoneBench {
  rate: number;
  viewport: { width: number; height: number };
  /** A fixed loop's time unthrottled and throttled: the throttle as measured. */
  calibration: { plainMs: number; throttledMs: number };
  runs: PhoneRun[];
  /** React alone (scripts/bench/react-floor/): each first visit's longest main-thread task (ms). */
  reactFloorMs: number[];
}

/** A fixed amount of work in the page, timed there (ms). */
const loopMs = (page: Page) =>
  page.evaluate(() => {
    const t0 = performance.now();
    let x = 0;
    for (let i = 0; i < 2e7; i++) x = (x + i * 7) % 1000003;
    return performance.now() - t0 + x * 0;
  });

async function phoneRun(browser: Browser, pageUrl: string, rate: number): Promise<PhoneRun> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  try {
    await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate });
    const run = await runTasks(page, pageUrl);
    const { start, training } = startAndTraining(run);
    return { ...run, longestMs: { start: Math.max(0, ...start), training: Math.max(0, ...training) } };
  } finally {
    await context.close();
  }
}

export async function benchPhone(opts: { steps: number; runs: number; rate: number }): Promise<PhoneBench> {
  const dir = await buildPage();
  const site = await serve(dir);
  const floorDir = mkdtempSync(join(tmpdir(), 'react-floor-'));
  await build({ root: join(import.meta.dirname, 'react-floor'), base: './', configFile: false, logLevel: 'warn', build: { outDir: floorDir, emptyOutDir: true } });
  const floor = await serve(floorDir);
  const browser = await launch();
  try {
    const probe = await browser.newPage();
    await probe.goto(`${site.url}index.html?steps=1`);
    const cdp = await probe.context().newCDPSession(probe);
    const plainMs = median([await loopMs(probe), await loopMs(probe), await loopMs(probe)]);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: opts.rate });
    const throttledMs = median([await loopMs(probe), await loopMs(probe), await loopMs(probe)]);
    await probe.close();
    const runs: PhoneRun[] = [];
    for (let i = 0; i < opts.runs; i++) {
      console.log(`run ${i + 1} of ${opts.runs}…`);
      runs.push(await phoneRun(browser, `${site.url}index.html?steps=${opts.steps}&autorun=1`, opts.rate));
    }
    const reactFloorMs: number[] = [];
    for (let i = 0; i < opts.runs; i++) {
      console.log(`React alone, ${i + 1} of ${opts.runs}…`);
      reactFloorMs.push((await phoneRun(browser, `${floor.url}index.html`, opts.rate)).longestMs.start);
    }
    return { rate: opts.rate, viewport: { width: 390, height: 844 }, calibration: { plainMs, throttledMs }, runs, reactFloorMs };
  } finally {
    await browser.close();
    await stopServing({ ...site, dir }, { ...floor, dir: floorDir });
  }
}

export function phoneLines(b: PhoneBench): string[] {
  const range = (xs: number[]) => `${Math.min(...xs)}–${Math.max(...xs)} ms`;
  const starts = b.runs.map((r) => r.longestMs.start);
  const trainings = b.runs.map((r) => r.longestMs.training);
  const verdict = (xs: number[], target: number) => (Math.max(...xs) <= target ? 'PASS' : 'FAIL');
  return [
    `Chromium at ${b.rate}× CPU throttling (a fixed loop: ${b.calibration.plainMs.toFixed(0)} ms plain, ${b.calibration.throttledMs.toFixed(0)} ms throttled, ${(b.calibration.throttledMs / b.calibration.plainMs).toFixed(1)}×), ${b.viewport.width}×${b.viewport.height} touch, ${b.runs.length} first visits`,
    ...b.runs.map(
      (r, i) =>
        `  run ${i + 1}: first paint ${r.firstPaintMs} ms, training from ${r.trainingFromMs} ms, finished at ${r.finishedMs} ms; longest task while starting ${r.longestMs.start} ms, while training ${r.longestMs.training} ms; tasks over 50 ms: ${r.tasks.map(([t, d]) => `${d}@${t}`).join(' ')}`,
    ),
    `longest main-thread task while the page starts: ${range(starts)} (target ≤ ${PHONE_TARGETS.startMs} ms): ${verdict(starts, PHONE_TARGETS.startMs)}`,
    `longest main-thread task while it trains: ${range(trainings)} (target ≤ ${PHONE_TARGETS.trainingMs} ms): ${verdict(trainings, PHONE_TARGETS.trainingMs)}`,
    `the floor, React alone rendering one paragraph (scripts/bench/react-floor/), its longest task: ${range(b.reactFloorMs)} (${b.reactFloorMs.join(', ')})`,
  ];
}
