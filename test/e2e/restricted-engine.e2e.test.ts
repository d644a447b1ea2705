// The plate page where JavaScript runs without its JIT and there is no WebAssembly, as Safari's
// Lockdown Mode, Tor Browser's safer levels and Edge's strict security have it: Chromium started
// with --js-flags=--jitless, and Firefox with its three JITs and WebAssembly off in its profile.
// A GRPO step takes a minute or minutes there (docs/performance.md). Each engine opens
// ?autorun=1&steps=3 and the test ends as soon as what it claims is shown: the condition named,
// the time left said, a step that has computed past the old watchdog's 30 s of silence without
// the trainer being called stopped, and Pause answered at once. The rest of the run is not waited for.
import type { Server } from 'node:http';
import type { Browser as ChromiumBrowser, Page as ChromiumPage } from 'playwright-core';
import type { Browser as FirefoxBrowser, Page as FirefoxPage } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch } from '../browser/chromium';
import { FIREFOX_NO_JIT, launchFirefox } from '../browser/firefox';
import { serve } from '../browser/site';

let site: { url: string; server: Server };

beforeAll(async () => {
  site = await serve(inject('pageDir')); // built once for every browser file (test/e2e/setup.ts)
});
afterAll(async () => {
  if (site) await new Promise((done) => site.server.close(done));
});

const PATH = 'index.html?autorun=1&steps=3';
/** The old watchdog's silence before the first timed step, and a margin. */
const PAST_OLD_WATCHDOG_MS = 32_000;

declare global {
  interface Window {
    /** Every message from the page's worker: when, its type, and a progress's ms (spyOnWorkers). */
    heard?: [number, string, number | undefined][];
  }
}

/** What both drivers offer: a function run in the page, and a wait for a function or expression to hold there. */
interface Driven {
  evaluate<T>(f: () => T): Promise<T>;
  until(f: (() => boolean) | string, timeout: number): Promise<void>;
  click(selector: string): Promise<void>;
}

/** Before the page's scripts: every message from the worker, timed (the page's own state is not exposed). */
function spyOnWorkers() {
  const heard: [number, string, number | undefined][] = [];
  window.heard = heard;
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(url: string | URL, opts?: WorkerOptions) {
      super(url, opts);
      this.addEventListener('message', (e: MessageEvent<{ type: string; ms?: number }>) =>
        heard.push([performance.now(), e.data.type, e.data.ms]),
      );
    }
  };
}

/** The page, in whichever engine, through what the test claims. */
async function restrictedEngine(page: Driven): Promise<{ longestSilenceMs: number; pauseMs: number }> {
  // The condition, named from Ready on: no WebAssembly, and JavaScript without its JIT.
  await page.until(() => {
    const note = document.querySelector('.status-slow')?.textContent ?? '';
    return note.includes('runs no WebAssembly') && note.includes('without its JIT');
  }, 120_000);
  const why = await page.evaluate(() => document.querySelector('.status-skipped')?.textContent ?? '');
  expect(why).toContain('WebAssembly: this browser runs no WebAssembly');
  expect(await page.evaluate(() => document.querySelector('.status')!.textContent)).not.toContain('SIMD');
  // The cost, from the first measured part of the evaluation before the first step.
  await page.until(() => /about \d+ (s|min|h)/.test(document.querySelector('.status-left')?.textContent ?? ''), 60_000);
  expect(await page.evaluate(() => document.querySelector('.status-speed')?.textContent)).toMatch(/ a step/);
  expect(await page.evaluate(() => document.querySelector('.status-flight')?.textContent)).toMatch(/step \d: /);
  // A record computing past the old watchdog's 30 s of silence, and the trainer not called stopped.
  await page.until(
    `(window.heard ?? []).some(([, type, ms]) => type === 'progress' && ms >= ${PAST_OLD_WATCHDOG_MS})`,
    180_000,
  );
  expect(await page.evaluate(() => document.querySelector('.status-word')?.textContent)).toBe('Training');
  expect(await page.evaluate(() => document.querySelector('.status-error'))).toBeNull();
  const times = await page.evaluate(() => window.heard!.map(([t]) => t));
  const longestSilenceMs = Math.max(...times.slice(1).map((t, i) => t - times[i]!));
  // Pause, answered at once by the page, which says when the step in flight will let it pause.
  const t0 = Date.now();
  await page.click('button.run');
  await page.until(() => document.querySelector('.status-word')?.textContent === 'Pausing…', 5_000);
  const pauseMs = Date.now() - t0;
  expect(await page.evaluate(() => document.querySelector('.status-after')?.textContent)).toMatch(
    /^after step \d, about \d+ (s|min)$/,
  );
  return { longestSilenceMs, pauseMs };
}

describe('a browser without its JIT and without WebAssembly', () => {
  let chromium: ChromiumBrowser | undefined;
  let firefox: FirefoxBrowser | undefined;
  afterAll(async () => {
    await Promise.all([chromium?.close(), firefox?.close()]);
  });

  it('Chromium --jitless: names the condition, says the time left, is never called stopped, and answers Pause', async () => {
    chromium = await launch(['--js-flags=--jitless']);
    const page: ChromiumPage = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(spyOnWorkers);
    const t0 = Date.now();
    await page.goto(site.url + PATH);
    await page.locator('.plate-figure').scrollIntoViewIfNeeded(); // a run out of view waits
    const seen = await restrictedEngine({
      evaluate: (f) => page.evaluate(f),
      until: (f, timeout) => page.waitForFunction(f, null, { timeout, polling: 200 }).then(() => {}),
      click: (selector) => page.click(selector),
    });
    console.log(`Chromium --jitless: ${JSON.stringify(seen)}, ${((Date.now() - t0) / 1000).toFixed(0)} s from load`);
    await chromium.close();
  }, 240_000);

  it('Firefox with its JITs and WebAssembly off: the same', async () => {
    firefox = await launchFirefox(FIREFOX_NO_JIT);
    const page: FirefoxPage = await firefox.newPage();
    await page.evaluateOnNewDocument(spyOnWorkers);
    const t0 = Date.now();
    await page.goto(site.url + PATH);
    await page.waitForSelector('.plate-figure');
    await page.evaluate(() => document.querySelector('.plate-figure')!.scrollIntoView());
    const seen = await restrictedEngine({
      evaluate: (f) => page.evaluate(f),
      until: (f, timeout) => page.waitForFunction(f, { timeout, polling: 200 }).then(() => {}),
      click: (selector) => page.click(selector),
    });
    console.log(`Firefox, no JIT: ${JSON.stringify(seen)}, ${((Date.now() - t0) / 1000).toFixed(0)} s from load`);
    await firefox.close();
  }, 240_000);
});
