// `npm run bench -- sitting`: a long sitting on the real plate page in headless Chromium — five
// runs on one page, each Run to the end, then Reset and the faulty calculator toggled — with the
// page's JS heap after garbage collection after each run (and the worker's beside it). What
// Reset clears must be dropped and the earlier runs kept compact: the page's heap should not
// grow by a run's episodes each time.
import type { Page } from 'playwright-core';
import { launch } from '../../test/browser/chromium';
import { buildPage } from '../../test/browser/page-site';
import { serve, stopServing } from '../../test/browser/site';
import { workerHeapMB } from './browser';

export interface SittingBench {
  runs: number;
  steps: number;
  /** The page's used JS heap after GC (MB): after loading, then after each run finished. */
  pageHeapMB: number[];
  /** The worker's, at the same moments. */
  workerHeapMB: (number | null)[];
  /** (last − first after a run) / (runs − 1): what each further run adds to the page's heap. */
  perRunMB: number;
}

/** The page's own used JS heap after a garbage collection, through the DevTools protocol. */
async function pageHeapMB(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    return usedSize / 2 ** 20;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

const status = (page: Page, word: string) =>
  page.waitForFunction((w) => document.querySelector('.status-word')?.textContent === w, word, { timeout: 600_000, polling: 100 });

export async function benchSitting(opts: { steps: number; runs: number }): Promise<SittingBench> {
  const dir = await buildPage();
  const { url, server } = await serve(dir);
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${url}index.html?steps=${opts.steps}`);
    await page.locator('.plate-figure').scrollIntoViewIfNeeded(); // out of view, a run holds
    await status(page, 'Ready');
    const pageHeap = [await pageHeapMB(page)];
    const workerHeap = [await workerHeapMB(page)];
    for (let run = 1; run <= opts.runs; run++) {
      await page.getByRole('button', { name: 'Run' }).click();
      await status(page, 'Finished');
      pageHeap.push(await pageHeapMB(page));
      workerHeap.push(await workerHeapMB(page));
      if (run === opts.runs) break;
      await page.getByRole('button', { name: 'Reset' }).click();
      await status(page, 'Ready');
      await page.getByRole('switch', { name: /Faulty calculator/ }).click(); // waits for Run at Ready
    }
    const after = pageHeap.slice(1);
    return { runs: opts.runs, steps: opts.steps, pageHeapMB: pageHeap, workerHeapMB: workerHeap, perRunMB: (after.at(-1)! - after[0]!) / Math.max(1, after.length - 1) };
  } finally {
    await browser.close();
    await stopServing({ server, dir });
  }
}

export function sittingLines(b: SittingBench): string[] {
  const mb = (xs: readonly (number | null)[]) => xs.map((x) => (x === null ? '—' : x.toFixed(1))).join(' → ');
  return [
    `${b.runs} runs of ${b.steps} GRPO steps on one page (Run, then Reset and the faulty calculator toggled):`,
    `  page heap after GC, at Ready then after each run: ${mb(b.pageHeapMB)} MB (${b.perRunMB >= 0 ? '+' : ''}${b.perRunMB.toFixed(2)} MB a run after the first)`,
    `  worker heap at the same moments: ${mb(b.workerHeapMB)} MB`,
  ];
}
