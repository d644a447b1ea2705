// Headless Chromium for the browser tests and the bench: Debian's /usr/bin/chromium through playwright-core
// (no browser download), and helpers to open the harness page and wait on the hook's state.
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { RunConfig } from '../../src/pipeline/settings';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import type { WorkerState } from '../../src/client/worker-state';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * --enable-unsafe-webgpu exposes SwiftShader's software WebGPU adapter to headless Chromium.
 * more: flags of a file's own (`--js-flags=--jitless`: JavaScript without its JIT, and no WebAssembly).
 */
export function launch(more: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--enable-unsafe-webgpu',
      ...more,
    ],
  });
}

const DEFAULT_RUN: RunConfig = { seed: 1, steps: 40, ...PLATE_SETTINGS };

export interface Harness {
  page: Page;
  /** Console lines from the page and its workers. */
  console: string[];
  /** The hook's state, without the functions. */
  state(): Promise<WorkerState>;
  /** Waits until `test(state)` holds; the test runs in the page, so it must be self-contained. */
  until(test: (s: WorkerState) => boolean, timeoutMs?: number): Promise<WorkerState>;
  call(action: 'pause' | 'resume' | 'reset' | 'restartWorker'): Promise<void>;
  start(config: Partial<RunConfig>): Promise<void>;
  configure(config: Partial<RunConfig>): Promise<void>;
}

/**
 * One page for every open of a test file: each open navigates it rather than making a fresh
 * context, so the renderer process and the HTTP, script and WASM code caches carry over (a fresh
 * context's open of the plate with a 3-step run cost 4.5 CPU-s on two cores, a navigation 2.5).
 * Each open starts clean of what the last left: listeners, storage, viewport and media. A test
 * that closes the page or its context only makes the next open start a fresh one.
 */
export function pageReuser(browser: Browser) {
  let page: Page | undefined;
  return async function reuse(viewport = { width: 1280, height: 900 }): Promise<Page> {
    if (!page || page.isClosed()) {
      page = await (await browser.newContext({ viewport })).newPage();
      return page;
    }
    for (const type of ['console', 'pageerror', 'worker', 'download', 'load'] as const) page.removeAllListeners(type);
    page.context().removeAllListeners('request');
    await page
      .evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      })
      .catch(() => {}); // a page that never loaded has no storage to clear
    await page.setViewportSize(viewport);
    await page.emulateMedia({ media: null, colorScheme: 'light' });
    return page;
  };
}

/** Opens the harness page in `page` (a new one, or one from pageReuser); `query` like '?backend=cpu'. */
export async function openHarness(page: Page, siteUrl: string, query = ''): Promise<Harness> {
  const lines: string[] = [];
  // The page's console carries its workers' too, from the first line: a listener added on each
  // worker as it appears subscribes late and can miss what the worker logs at once.
  page.on('console', (m) => lines.push(`${m.worker() ? 'worker ' : ''}${m.type()}: ${m.text()}`));
  await page.goto(siteUrl + query);
  const state = () => page.evaluate(() => JSON.parse(JSON.stringify(window.plateWorker ?? null)) as WorkerState);
  return {
    page,
    console: lines,
    state,
    async until(test, timeoutMs = 60_000) {
      await page.waitForFunction(
        (src) =>
          window.plateWorker !== undefined &&
          (new Function(`return (${src})`)() as (s: unknown) => boolean)(window.plateWorker),
        test.toString(),
        { timeout: timeoutMs, polling: 50 },
      );
      return state();
    },
    call: (action) => page.evaluate((a) => window.plateWorker![a](), action),
    start: (config) => page.evaluate((c) => window.plateWorker!.start(c), { ...DEFAULT_RUN, ...config }),
    configure: (config) => page.evaluate((c) => window.plateWorker!.configure(c), { ...DEFAULT_RUN, ...config }),
  };
}

/** What a page did that a test may not allow: console errors (its workers' too) and requests off its origin. */
export interface Watched {
  errors: string[];
  foreign: string[];
}

/** Starts recording `page`'s errors and the context's requests to anywhere but `origin` (data: and blob: are fine). */
export function watch(context: BrowserContext, page: Page, origin: string): Watched {
  const w: Watched = { errors: [], foreign: [] };
  // The page's console carries its workers' errors too (see openHarness).
  page.on('console', (m) => m.type() === 'error' && w.errors.push(`${m.worker() ? 'worker: ' : ''}${m.text()}`));
  page.on('pageerror', (e) => w.errors.push(e.message));
  context.on('request', (r) => {
    const u = new URL(r.url());
    if (u.protocol !== 'data:' && u.protocol !== 'blob:' && u.origin !== origin) w.foreign.push(r.url());
  });
  return w;
}
