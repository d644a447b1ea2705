// What a reader's browser downloads on a first visit (empty cache) until a short run finishes:
// every response the page and its workers got, its gzipped size (zlib's default level, as a
// static host would compress it), and which tfjs backends' code came with it. Measured in the
// browser, so a site served by its framework's own server (`next start`) counts the same way as
// a folder of files. `npm run test:sites` checks the budgets on these figures; the bench prints them.
import { gzipSync } from 'node:zlib';
import type { Browser, Page, Response } from 'playwright-core';
import { watch, type Watched } from './chromium';

/** A string only that backend's code holds (its flags, or its own error message). */
const BACKEND_MARKERS = {
  wasm: 'The WASM backend was already initialized',
  webgl: 'WEBGL_VERSION',
  webgpu: 'WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE',
} as const;
export type MarkedBackend = keyof typeof BACKEND_MARKERS;

interface ServedFile {
  /** The URL's path. */
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
  /** Times the page was loaded again after the first (a dev server's reload). */
  reloads: number;
  /** The console's errors since the page last loaded: what the page that stayed said. */
  errorsSinceLastLoad: string[];
}

const isJs = (path: string, type: string) => /\.m?js$/.test(path) || /javascript/.test(type);

function describeFile(path: string, body: Buffer, type = ''): ServedFile {
  const js = isJs(path, type);
  const text = js ? body.toString('utf8') : '';
  const backends = js
    ? (Object.keys(BACKEND_MARKERS) as MarkedBackend[]).filter((b) => text.includes(BACKEND_MARKERS[b]))
    : [];
  return { path, bytes: body.length, gz: gzipSync(body).length, backends };
}

/**
 * Opens `url` in a fresh context (empty cache, a 1280×900 window), waits for `until`, and returns
 * what came meanwhile: the files, the console's errors, requests to another origin.
 */
export async function visit(browser: Browser, url: string, until: (page: Page) => Promise<unknown>): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const watched = watch(context, page, new URL(url).origin);
  let loads = 0;
  let errorsAtLastLoad = 0;
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame()) return;
    loads++;
    errorsAtLastLoad = watched.errors.length;
  });
  const bodies: Promise<ServedFile | null>[] = [];
  const js: Map<string, boolean> = new Map();
  context.on('response', (r: Response) => {
    const path = new URL(r.url()).pathname;
    if (r.request().method() !== 'GET' || r.status() !== 200 || !/^https?:/.test(r.url())) return;
    const type = r.headers()['content-type'] ?? '';
    js.set(path, isJs(path, type));
    bodies.push(
      r.body().then(
        (b) => describeFile(path, b, type),
        () => null,
      ),
    );
  });
  await page.goto(url);
  await until(page);
  const files = (await Promise.all(bodies)).filter((f): f is ServedFile => f !== null);
  const sum = (fs: ServedFile[]) => fs.reduce((n, f) => n + f.gz, 0);
  return {
    files,
    jsGz: sum(files.filter((f) => js.get(f.path))),
    totalGz: sum(files),
    backends: [...new Set(files.flatMap((f) => f.backends))],
    page,
    ...watched,
    reloads: loads - 1,
    errorsSinceLastLoad: watched.errors.slice(errorsAtLastLoad),
  };
}

/** Waits until the plate in `selector` says `word` ("Finished", "Ready"), or fails on Error/Stopped. */
export async function statusWord(page: Page, word: string, selector = '.mtrl-plate', timeout = 120_000): Promise<void> {
  // It starts when near and trains in view. A dev server may reload the page once as it optimises
  // dependencies it found late (Astro's, on a fresh cache), taking the figure away mid-scroll.
  const figure = page.locator(`${selector} .plate-figure`).first();
  for (let reloads = 0; ; reloads++) {
    try {
      await figure.scrollIntoViewIfNeeded();
      break;
    } catch (e) {
      // Taken away by the reload: the element detached, or the document it was in gone.
      if (reloads === 2 || !/not attached|Cannot find context|Execution context was destroyed/.test(String(e))) throw e;
      await page.waitForLoadState('load');
    }
  }
  const got = await page.waitForFunction(
    ([s, w]) => {
      const now = document.querySelector(`${s} .status-word`)?.textContent ?? '';
      return [w, 'Error', 'Stopped'].includes(now) ? now : null;
    },
    [selector, word] as const,
    { timeout, polling: 100 },
  );
  const now = await got.jsonValue();
  if (now !== word)
    throw new Error(`${selector}: ${now}: ${await page.locator(`${selector} .status`).first().innerText()}`);
}
