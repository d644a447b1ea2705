// The package as a volume site gets it: `npm pack`, then a fresh Vite react-ts app with its own
// React installs the tarball, type-checks a page that imports the component and the element under
// `strict`, builds with its own `vite build`, and serves the output from a sub-path — no alias,
// no copied assets, no assetBase. The plate must train there, once as a component and twice as
// elements on one page, without a console error or a request to another origin.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATE } from '../../src/plate/text';
import { launch, watch } from '../../scripts/browser/chromium';
import { removeSite, serve } from '../../scripts/browser/site';

const ROOT = resolve(import.meta.dirname, '../..');
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
/** The consumer's own tools, at the versions this repository locks (so npm finds them in its cache). */
const TOOLS = ['react', 'react-dom', 'vite', '@vitejs/plugin-react', 'typescript', '@types/react', '@types/react-dom'].map((p) => `${p}@${lock.packages[`node_modules/${p}`]!.version}`);

const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

let work: string;
let app: string;
let tarball: string;
let packed: { files: { path: string }[]; size: number; unpackedSize: number }[];
let browser: Browser;
let site: { url: string; server: Server };

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'plate-package-'));
  // prepack builds the library first, so the tarball is never stale.
  const out = run('npm', ['pack', '--json', '--pack-destination', work], ROOT);
  packed = JSON.parse(out.slice(out.lastIndexOf('\n[') + 1)); // after the build's own output
  tarball = join(work, (packed[0] as unknown as { filename: string }).filename);
  app = join(work, 'volume-site');
  cpSync(join(ROOT, 'test/e2e/consumer'), app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'volume-site', private: true, type: 'module' }));
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...TOOLS], app);
  browser = await launch();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  if (site) await new Promise((done) => site.server.close(done));
  if (work) removeSite(work);
});

async function open(page: string): Promise<{ p: Page; errors: string[]; foreign: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const p = await context.newPage();
  const watched = watch(context, p, new URL(site.url).origin);
  await p.goto(site.url + page);
  return { p, ...watched };
}

const finished = (p: Page, selector: string) =>
  p.waitForFunction((s) => document.querySelector(`${s} .status-word`)?.textContent === 'Finished', selector, { timeout: 90_000, polling: 100 });

describe('the packed library in a fresh Vite app', () => {
  it('packs only what a consumer needs: the built library, its declarations and styles, no tests or sources', () => {
    const files = packed[0]!.files.map((f) => f.path).sort();
    for (const f of files) expect(f, f).toMatch(/^(package\.json|README\.md|CHANGELOG\.md|dist-lib\/.+)$/);
    for (const f of ['dist-lib/multi-turn-rl-plate.js', 'dist-lib/multi-turn-rl-plate.d.ts', 'dist-lib/style.css', 'CHANGELOG.md']) expect(files).toContain(f);
    expect(files.filter((f) => /\.(map|ts)$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules/multi-turn-rl-plate/package.json'), 'utf8'));
    expect(pkg.peerDependencies).toMatchObject({ react: expect.any(String), 'react-dom': expect.any(String) });
    expect(pkg.dependencies ?? {}).toEqual({});
  });

  it('type-checks the consumer’s TSX under strict, against declarations that catch wrong props', () => {
    expect(() => run(join(app, 'node_modules/.bin/tsc'), ['--noEmit', '-p', '.'], app)).not.toThrow();
  });

  it('builds with the consumer’s own vite build, emitting the worker, the .wasm it loads, the checkpoints and the reference runs with hashed names', () => {
    run(join(app, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], app);
    const assets = readdirSync(join(app, 'dist/assets'));
    const hashed = (re: RegExp) => assets.filter((f) => re.test(f));
    expect(hashed(/^training\.worker-[\w-]+\.js$/)).toHaveLength(1);
    expect(hashed(/^tfjs-backend-wasm-simd-[\w-]+\.wasm$/)).toHaveLength(1);
    expect(hashed(/threaded/), 'the threaded .wasm is never loaded, so it is not shipped').toHaveLength(0);
    expect(hashed(/^weights-[\w-]+\.bin$/)).toHaveLength(2);
    expect(hashed(/^reference-runs-[\w-]+\.json$/)).toHaveLength(1);
  });

  describe('served from a sub-path', () => {
    beforeAll(async () => {
      site = await serve(join(app, 'dist'));
    });

    it('renders the component, whose worker trains a short run to its last step', async () => {
      const { p, errors, foreign } = await open('index.html');
      expect(await p.locator('h1').innerText()).toBe(PLATE.title);
      expect(await p.locator('a.xref').first().getAttribute('href')).toMatch(/^\/volume\/plates\/[\w.]+\/$/);
      await p.locator('.plate-figure').scrollIntoViewIfNeeded();
      await finished(p, '.mtrl-plate');
      expect(await p.locator('.chart-heldOut svg[role="img"]').getAttribute('aria-label')).toMatch(/^Held-out success, step 2 of 2: \d+%$/);
      expect(await p.locator('.band').count()).toBeGreaterThan(0);
      expect(errors, 'console errors').toEqual([]);
      expect(foreign, 'requests to another origin').toEqual([]);
      await p.context().close();
    });

    it('runs two plates as custom elements on one page, each with its own worker and calculator', async () => {
      const { p, errors, foreign } = await open('elements.html');
      for (const [id, tone] of [['#first', 'reliable'], ['#second', 'faulty']] as const) {
        await p.locator(`${id} .plate-figure`).scrollIntoViewIfNeeded(); // each trains while in view
        await finished(p, id);
        expect(await p.locator(`${id} .chart-reward .points.tone-${tone} circle`).count()).toBe(2);
      }
      expect(p.workers()).toHaveLength(2);
      expect(errors, 'console errors').toEqual([]);
      expect(foreign, 'requests to another origin').toEqual([]);
      await p.context().close();
    });
  });
});
