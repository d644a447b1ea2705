// The library as a volume site would use it: `build:lib`'s output bundled into a consumer app
// with its own React (test/e2e/page-lib-fixture), the plate's assets served from a folder of the
// site. Both the React component and the custom element must render the text, start the worker,
// load the checkpoint and draw a run, with no console error and no request to another origin.
import { cpSync, mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATE } from '../../src/plate/text';
import { launch } from './browser';
import { removeSite, serve } from './site';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURE = join(ROOT, 'test/e2e/page-lib-fixture');
let browser: Browser;
let site: { url: string; server: Server; dirs: string[] };

async function buildConsumer(): Promise<string[]> {
  const lib = mkdtempSync(join(tmpdir(), 'plate-lib-'));
  await build({ configFile: join(ROOT, 'vite.lib.config.ts'), root: ROOT, logLevel: 'warn', build: { outDir: lib, emptyOutDir: true } });
  const out = mkdtempSync(join(tmpdir(), 'plate-consumer-'));
  await build({
    configFile: false,
    root: FIXTURE,
    base: './',
    publicDir: false,
    logLevel: 'warn',
    plugins: [react()],
    worker: { format: 'es' },
    resolve: {
      // The library lives outside the consumer's tree: resolve its React from the consumer.
      dedupe: ['react', 'react-dom'],
      alias: [
        { find: 'multi-turn-rl-plate/style.css', replacement: join(lib, 'style.css') },
        { find: 'multi-turn-rl-plate', replacement: join(lib, 'multi-turn-rl-plate.js') },
      ],
    },
    build: { outDir: out, emptyOutDir: true, rolldownOptions: { input: { react: join(FIXTURE, 'react.html'), element: join(FIXTURE, 'element.html') } } },
  });
  for (const asset of ['checkpoints', 'reference-runs.json']) cpSync(join(lib, asset), join(out, 'plate-assets', asset), { recursive: true });
  return [lib, out];
}

beforeAll(async () => {
  const dirs = await buildConsumer();
  site = { ...(await serve(dirs[1]!)), dirs };
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  if (site) await new Promise((done) => site.server.close(done));
  site?.dirs.forEach(removeSite);
});

describe('the built library, consumed by another app', () => {
  for (const [page, calculator] of [['react.html', 'reliable'], ['element.html', 'faulty']] as const) {
    it(`${page}: renders the plate and trains a ${calculator} run with its worker, wasm and checkpoint`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const p = await context.newPage();
      const errors: string[] = [];
      const foreign: string[] = [];
      const origin = new URL(site.url).origin;
      p.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      p.on('pageerror', (e) => errors.push(e.message));
      context.on('request', (r) => {
        const u = new URL(r.url());
        if (u.protocol !== 'data:' && u.protocol !== 'blob:' && u.origin !== origin) foreign.push(r.url());
      });
      await p.goto(site.url + page);
      expect(await p.locator('h1').innerText()).toBe(PLATE.title);
      expect(await p.locator('a.xref').count()).toBe(6);
      await p.locator('.plate-figure').scrollIntoViewIfNeeded();
      await p.waitForFunction(() => document.querySelector('.status-word')?.textContent === 'Finished', null, { timeout: 90_000, polling: 100 });
      expect(await p.locator(`.chart-reward .points.tone-${calculator} circle`).count()).toBe(2);
      expect(await p.locator('.chart-heldOut svg[role="img"]').getAttribute('aria-label')).toMatch(/^Held-out success, step 2 of 2: \d+%$/);
      expect(await p.locator('.band').count()).toBeGreaterThan(0);
      expect(await p.locator('.mtrl-plate').evaluate((e) => getComputedStyle(e).fontFamily)).toMatch(/serif/);
      expect(errors, 'console errors').toEqual([]);
      expect(foreign, 'requests to another origin').toEqual([]);
      await context.close();
    });
  }
});
