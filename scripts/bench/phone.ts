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
import { removeSite, serve } from '../../test/browser/site';
import { median } from './stats';

/** The targets: no task longer while the page starts, none longer while it trains (ms). */
const PHONE_TARGETS = { startMs: 300, trainingMs: 100 } as const;

interface PhoneRun {
  /** Every main-thread task over 50 ms, [start, duration] in ms from navigation, rounded. */
  tasks: [number, number][];
  /** When the status line first said "Training", and "Finished" (ms from navigation). */
  trainingFromMs: number;
  finishedMs: number;
  /** First contentful paint (ms from navigation). */
  firstPaintMs: number;
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
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await page.addInitScript(() => {
      // Long-task entries arrive late: each is kept with its start time and classified at the end
      // against the moments the status line changed (textContent: no layout for the check).
      const w = window as unknown as { tasks: [number, number][]; trainingFrom: number; finished: number; paint: number };
      w.tasks = [];
      w.trainingFrom = Infinity;
      w.finished = Infinity;
      w.paint = NaN;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.tasks.push([Math.round(e.startTime), Math.round(e.duration)]);
      }).observe({ type: 'longtask', buffered: true });
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') w.paint = Math.round(e.startTime);
      }).observe({ type: 'paint', buffered: true });
      // Bring the figure on screen once it is there, as a reader scrolls to it: the page holds a
      // run while the figure is out of view.
      let scrolled = false;
      const watch = setInterval(() => {
        if (!scrolled) {
          const figure = document.querySelector('.plate-figure');
          if (figure) {
            figure.scrollIntoView({ block: 'start' });
            scrolled = true;
          }
        }
        const word = document.querySelector('.status-word')?.textContent ?? '';
        if (w.trainingFrom === Infinity && word === 'Training') w.trainingFrom = performance.now();
        if (word === 'Finished') {
          w.finished = performance.now();
          clearInterval(watch);
          console.log('phone bench: finished');
        }
      }, 20);
    });
    // Told by a console line, not by polling the page: Playwright's waitForFunction would load its
    // own script into the page, a long task of its own on a throttled CPU.
    const finished = page.waitForEvent('console', { predicate: (m) => m.text() === 'phone bench: finished', timeout: 600_000 });
    await page.goto(pageUrl);
    await finished;
    // The last long-task entries are delivered a moment after the task.
    await page.waitForTimeout(500);
    const w = await page.evaluate(() => {
      const v = window as unknown as { tasks: [number, number][]; trainingFrom: number; finished: number; paint: number };
      return { tasks: v.tasks, trainingFrom: v.trainingFrom, finished: v.finished, paint: v.paint };
    });
    const start = w.tasks.filter(([t]) => t < w.trainingFrom).map(([, d]) => d);
    const training = w.tasks.filter(([t]) => t >= w.trainingFrom && t < w.finished).map(([, d]) => d);
    return {
      tasks: w.tasks,
      trainingFromMs: Math.round(w.trainingFrom),
      finishedMs: Math.round(w.finished),
      firstPaintMs: w.paint,
      longestMs: { start: Math.max(0, ...start), training: Math.max(0, ...training) },
    };
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
    await Promise.all([site, floor].map(({ server }) => new Promise((ok) => server.close(ok))));
    removeSite(dir);
    removeSite(floorDir);
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
