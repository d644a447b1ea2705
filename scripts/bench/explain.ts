// The explainer's costs in the browser (`npm run bench -- explain`):
// - the push (the log-probs before and after each update that the episode viewer shows) in the
//   Chromium worker on wasm: milliseconds per step and its share of the step (target ≤ 10%);
// - the longest main-thread task on the plate page while the reader presses Step and asks sums,
//   paused and while a run trains (target: none over 50 ms).
import type { Browser } from 'playwright-core';
import { phaseMedians, type PhaseMedians } from './stats';
import { launch, openHarness } from '../../test/browser/chromium';
import { buildPage } from '../../test/browser/page-site';
import { buildSite, serve, stopServing } from '../../test/browser/site';

export interface ExplainBench {
  /** The Chromium worker on wasm, a default run of `steps` steps. */
  worker: { steps: number; phases: PhaseMedians };
  /** Longest main-thread task (ms; 0 = none over 50 ms) while stepping and asking. */
  longestTaskMs: { steppingAndAsking: number };
  /** Steps and asks the page measurement made. */
  interactions: { steps: number; asks: number };
}

async function pushInWorker(browser: Browser, harnessUrl: string, steps: number): Promise<ExplainBench['worker']> {
  const h = await openHarness(await browser.newPage(), harnessUrl, '?backend=wasm');
  try {
    await h.until((s) => s.status === 'ready', 120_000);
    await h.start({ steps });
    const done = await h.until((s) => s.status === 'done', 300_000);
    return { steps, phases: phaseMedians(done.run!.steps) };
  } finally {
    await h.page.close();
  }
}

/** The plate page: Step a few times with an ask after each, then Run with asks while it trains. */
async function steppingAndAsking(browser: Browser, plateUrl: string): Promise<{ longest: number; steps: number; asks: number }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 4000 } });
  try {
    await page.goto(`${plateUrl}index.html?backend=wasm&steps=12`);
    await page.waitForFunction(() => document.querySelector('.status-word')?.textContent === 'Ready', undefined, { timeout: 120_000 });
    await page.evaluate(() => {
      const w = window as unknown as { tasks: number[] };
      w.tasks = [];
      new PerformanceObserver((list) => list.getEntries().forEach((e) => w.tasks.push(e.duration))).observe({ type: 'longtask' });
    });
    const box = page.getByRole('textbox', { name: /sum/ });
    let asks = 0;
    const ask = async (sum: string) => {
      await box.fill(sum);
      await page.getByRole('button', { name: 'Ask' }).click();
      asks++;
      await page.getByRole('group', { name: `The agent’s answer to ${sum}` }).waitFor({ timeout: 60_000 });
    };
    for (let n = 1; n <= 6; n++) {
      await page.getByRole('button', { name: /^Step/ }).click();
      await page.waitForFunction((k) => document.querySelector('.status-after')?.textContent === `after GRPO step ${k}`, n, { timeout: 60_000 });
      await ask(`${20 + n}+${40 + n}`);
    }
    await page.getByRole('button', { name: 'Resume' }).click();
    for (let n = 0; n < 3; n++) await ask(`${50 + n}+${30 + n}`);
    await page.waitForFunction(() => document.querySelector('.status-word')?.textContent === 'Finished', undefined, { timeout: 120_000 });
    // Long-task entries are delivered after the task: one more frame, then read them.
    await page.evaluate(() => new Promise(requestAnimationFrame));
    const longest = await page.evaluate(() => Math.max(0, ...(window as unknown as { tasks: number[] }).tasks));
    return { longest, steps: 6, asks };
  } finally {
    await page.close();
  }
}

export async function benchExplain(steps: number): Promise<ExplainBench> {
  const [harnessDir, pageDir] = [await buildSite(), await buildPage()];
  const [harness, plate] = [await serve(harnessDir), await serve(pageDir)];
  const browser = await launch();
  try {
    const worker = await pushInWorker(browser, harness.url, steps);
    const page = await steppingAndAsking(browser, plate.url);
    return { worker, longestTaskMs: { steppingAndAsking: page.longest }, interactions: { steps: page.steps, asks: page.asks } };
  } finally {
    await browser.close();
    await stopServing({ ...harness, dir: harnessDir }, { ...plate, dir: pageDir });
  }
}

export function explainLines(b: ExplainBench): string[] {
  const p = b.worker.phases;
  const task = (x: number) => (x > 0 ? `${x.toFixed(0)} ms` : 'none over 50 ms');
  return [
    `the push in the Chromium worker on wasm (${b.worker.steps} steps, medians): ${p.push.toFixed(1)} ms of a ${p.total.toFixed(0)} ms step, ${(100 * p.pushShare).toFixed(1)}% per step`,
    `longest main-thread task on the plate page while stepping and asking (${b.interactions.steps} Steps, ${b.interactions.asks} asks, paused and running): ${task(b.longestTaskMs.steppingAndAsking)}`,
  ];
}
