// What a reader's browser downloads on a first visit (empty cache) until a short run finishes:
// every file the server sends, its gzipped size (zlib's default level, as a static host would
// compress it), and which tfjs backends' code came with it. The package test checks the budgets
// on these figures; `npm run bench` prints them.
import { gzipSync } from 'node:zlib';
import type { Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { watch, type Watched } from './chromium';
import { serve } from './site';

/** A string only that backend's code holds (its flags, or its own error message). */
export const BACKEND_MARKERS = {
  wasm: 'The WASM backend was already initialized',
  webgl: 'WEBGL_VERSION',
  webgpu: 'WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE',
} as const;
export type MarkedBackend = keyof typeof BACKEND_MARKERS;

interface ServedFile {
  path: string;
  bytes: number;
  gz: number;
  /** Backends whose code this file holds (JavaScript only). */
  backends: MarkedBackend[];
}

export interface Visit extends Watched {
  files: ServedFile[];
  /** Gzipped bytes: JavaScript (page and worker), and everything. */
  jsGz: number;
  totalGz: number;
  /** Backends whose code was downloaded. */
  backends: MarkedBackend[];
  page: Page;
}

export interface MeasuredSite {
  url: string;
  server: Server;
  /** Opens `path` in a fresh context (empty cache), waits for `until`, returns what was sent meanwhile. */
  visit(browser: Browser, path: string, until: (page: Page) => Promise<unknown>): Promise<Visit>;
  close(): Promise<void>;
}

function describeFile(path: string, body: Buffer): ServedFile {
  const js = path.endsWith('.js') || path.endsWith('.mjs');
  const text = js ? body.toString('utf8') : '';
  const backends = js ? (Object.keys(BACKEND_MARKERS) as MarkedBackend[]).filter((b) => text.includes(BACKEND_MARKERS[b])) : [];
  return { path, bytes: body.length, gz: gzipSync(body).length, backends };
}

export async function measuredSite(dir: string): Promise<MeasuredSite> {
  let sent: ServedFile[] = [];
  const { url, server } = await serve(dir, {}, (path, body) => sent.push(describeFile(path, body)));
  return {
    url,
    server,
    async visit(browser, path, until) {
      sent = [];
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const watched = watch(context, page, new URL(url).origin);
      await page.goto(url + path);
      await until(page);
      const files = [...sent];
      const sum = (fs: ServedFile[]) => fs.reduce((n, f) => n + f.gz, 0);
      const js = files.filter((f) => /\.m?js$/.test(f.path));
      return { files, jsGz: sum(js), totalGz: sum(files), backends: [...new Set(files.flatMap((f) => f.backends))], page, ...watched };
    },
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** Waits until the plate in `selector` says `word` ("Finished", "Ready"), or fails on Error/Stopped. */
export async function statusWord(page: Page, word: string, selector = '.mtrl-plate', timeout = 120_000): Promise<void> {
  await page.locator(`${selector} .plate-figure`).first().scrollIntoViewIfNeeded(); // it trains only in view
  const got = await page.waitForFunction(
    ([s, w]) => {
      const now = document.querySelector(`${s} .status-word`)?.textContent ?? '';
      return [w, 'Error', 'Stopped'].includes(now) ? now : null;
    },
    [selector, word] as const,
    { timeout, polling: 100 },
  );
  const now = await got.jsonValue();
  if (now !== word) throw new Error(`${selector}: ${now}: ${await page.locator(`${selector} .status`).first().innerText()}`);
}
