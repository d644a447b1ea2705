// The plate page's main thread over one run, for the benches (browser, phone): every task over
// 50 ms with its start, and the moments the status line first said "Training" and "Finished".
import type { Page } from 'playwright-core';

/** The line the page logs when the status says Finished (and the React-alone page when it has rendered). */
const FINISHED_LINE = 'bench: finished';

export interface RunTasks {
  /** Every main-thread task over 50 ms, [start, duration] in ms from navigation, rounded. */
  tasks: [number, number][];
  /** When the status line first said "Training", and "Finished" (ms from navigation; Infinity if never). */
  trainingFromMs: number;
  finishedMs: number;
  /** First contentful paint (ms from navigation). */
  firstPaintMs: number;
}

/**
 * Opens `url` on `page` and waits until the run finishes: told by a console line, not by polling,
 * since Playwright's waitForFunction loads its own script into the page, a long task of its own on
 * a throttled CPU. The figure is brought on screen once it is there, as a reader scrolls to it:
 * the page holds a run while the figure is out of view.
 */
export async function runTasks(page: Page, url: string): Promise<RunTasks> {
  await page.addInitScript((line) => {
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
        console.log(line);
      }
    }, 20);
  }, FINISHED_LINE);
  const finished = page.waitForEvent('console', { predicate: (m) => m.text() === FINISHED_LINE, timeout: 600_000 });
  await page.goto(url);
  await finished;
  // The last long-task entries are delivered a moment after the task.
  await page.waitForTimeout(500);
  const w = await page.evaluate(() => {
    const v = window as unknown as { tasks: [number, number][]; trainingFrom: number; finished: number; paint: number };
    return { tasks: v.tasks, trainingFrom: v.trainingFrom, finished: v.finished, paint: v.paint };
  });
  return { tasks: w.tasks, trainingFromMs: Math.round(w.trainingFrom), finishedMs: Math.round(w.finished), firstPaintMs: w.paint };
}

/** The durations of the tasks that began before training, and of those while it trained. */
export function startAndTraining(r: RunTasks): { start: number[]; training: number[] } {
  return {
    start: r.tasks.filter(([t]) => t < r.trainingFromMs).map(([, d]) => d),
    training: r.tasks.filter(([t]) => t >= r.trainingFromMs && t < r.finishedMs).map(([, d]) => d),
  };
}
