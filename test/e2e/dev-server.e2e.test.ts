// `npm start` as a newcomer meets it: the Vite dev server with an empty pre-bundling cache (a
// fresh clone's), the page in headless Chromium. The dev server resolves and evaluates modules
// differently from the build (pre-bundled dependencies, one module at a time), so the built page's
// tests do not cover it: here the worker must start, train and finish, the page must load once
// (no re-optimisation reload while a reader may be pressing Run) and nobody logs an error.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { createLogger, createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, watch } from '../browser/chromium';

const ROOT = resolve(import.meta.dirname, '../..');
const cacheDir = mkdtempSync(join(tmpdir(), 'plate-vite-cache-'));
const logged: string[] = [];
let server: ViteDevServer;
let browser: Browser;

beforeAll(async () => {
  const logger = createLogger('info');
  for (const level of ['info', 'warn', 'error'] as const) {
    const write = logger[level].bind(logger);
    logger[level] = (msg, options) => {
      logged.push(msg);
      if (level !== 'info') write(msg, options);
    };
  }
  server = await createServer({
    configFile: join(ROOT, 'vite.config.ts'),
    root: ROOT,
    mode: 'development',
    cacheDir,
    customLogger: logger,
    server: { host: '127.0.0.1', port: 0, strictPort: false },
  });
  await server.listen();
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe('the dev server (npm start) on a fresh cache', () => {
  it('loads the page once, whose worker trains a short run to its end with no error', async () => {
    const url = server.resolvedUrls!.local[0];
    const context = await browser.newContext();
    const page = await context.newPage();
    const watched = watch(context, page, new URL(url).origin);
    let loads = 0;
    page.on('load', () => loads++);
    // The first load pre-bundles the dependencies and transforms every module on demand: more than
    // Playwright's 30 s once, with a core held busy beside other jobs.
    await page.goto(`${url}?steps=2&backend=wasm`, { timeout: 120_000 });
    const word = (w: string) =>
      page.waitForFunction(
        (w) => ['Stopped', 'Error', w].includes(document.querySelector('.status-word')?.textContent ?? ''),
        w,
        { timeout: 90_000, polling: 100 },
      );
    await word('Ready');
    expect(await page.locator('.status').innerText()).toMatch(/^Ready/);
    await page.locator('button.run').click();
    await word('Finished');
    expect(await page.locator('.status-word').innerText()).toBe('Finished');
    expect(loads, 'page loads').toBe(1);
    expect(watched.errors, 'console errors').toEqual([]);
    expect(
      logged.filter((m) => /dependency scan|reloading|new dependencies optimized/i.test(m)),
      'dev-server messages',
    ).toEqual([]);
    await context.close();
  }, 300_000);
});
