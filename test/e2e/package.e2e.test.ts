// The package as volume sites get it: `npm pack`, then a fresh Vite react-ts app and a fresh
// webpack 5 app (plain JavaScript, css-loader + style-loader) install the tarball from npm's cache
// and build it with their own bundler, as their READMEs show. Each app, served from a sub-path,
// trains a 2-step run in Chromium with no console error and no request to another origin; the
// Vite app also type-checks under `strict` and trains in its dev server. The budgets: the tarball
// under 1 MB, a first visit no heavier than the standalone page's JavaScript + 10% (gzipped, page
// and worker, until a short run finishes), and no backend's code fetched unless it is tried.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import type { Logger, ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBytePlanes } from '../../src/model/byte-planes';
import { PLATE } from '../../src/plate/text';
import { launch, watch } from '../../scripts/lib/browser/chromium';
import { buildApp, buildStandalone, installApp, pack, ROOT, type Packed } from '../../scripts/lib/browser/consumers';
import { BACKEND_MARKERS, measuredSite, statusWord, type MeasuredSite, type Visit } from '../../scripts/lib/browser/first-visit';
import { removeSite } from '../../scripts/lib/browser/site';

/** The tarball's budget, in bytes as npm counts them (1 MB = 10^6 B). */
const TARBALL_BUDGET = 1_000_000;
/** A first visit through the package may cost this much more JavaScript than the standalone page. */
const FIRST_VISIT_SLACK = 1.1;
/** A string from tfjs-core's own code: in the package, it means tfjs was copied in. */
const TFJS_CODE = 'Cannot evaluate flag';

let work: string;
let pageDir: string | undefined;
let packed: Packed;
let apps: { vite: string; webpack: string };
let browser: Browser;
type SiteName = 'standalone' | 'vite' | 'webpack';
const sites: Partial<Record<SiteName, MeasuredSite>> = {};
const visits: Partial<Record<SiteName, Visit>> = {};
const seconds: Record<string, number> = {};
const timed = <T,>(name: string, f: () => T): T => {
  const t0 = performance.now();
  const out = f();
  seconds[name] = (performance.now() - t0) / 1000;
  return out;
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'plate-package-'));
  packed = timed('pack', () => pack(work));
  apps = timed('install', () => ({ vite: installApp('vite', work, packed.tarball), webpack: installApp('webpack', work, packed.tarball) }));
  browser = await launch();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(Object.values(sites).map((s) => s.close()));
  if (work) removeSite(work);
  if (pageDir) removeSite(pageDir);
  const kb = (n: number | undefined) => (n === undefined ? '—' : `${(n / 1024).toFixed(1)} KB`);
  console.log(
    [
      `package test: tarball ${packed ? `${packed.size} B` : '—'}; seconds ${Object.entries(seconds).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`,
      'first visit until a 2-step run finishes (gzip): JavaScript, everything',
      ...(['standalone', 'vite', 'webpack'] as const).map((k) => `  ${k.padEnd(10)} ${kb(visits[k]?.jsGz)}, ${kb(visits[k]?.totalGz)}`),
    ].join('\n'),
  );
});

/** `name`'s built app, served from a sub-path (once). */
async function site(name: SiteName, dir: string): Promise<MeasuredSite> {
  sites[name] ??= await measuredSite(dir);
  return sites[name];
}

function expectClean(v: Pick<Visit, 'errors' | 'foreign'>) {
  expect(v.errors, 'console errors').toEqual([]);
  expect(v.foreign, 'requests to another origin').toEqual([]);
}

describe('the tarball', () => {
  it('packs only what a consumer needs, under 1 MB: the library, its declarations and styles, the SIMD .wasm, the files', () => {
    const files = packed.files.map((f) => f.path).sort();
    for (const f of files) expect(f, f).toMatch(/^(package\.json|README\.md|CHANGELOG\.md|dist-lib\/.+)$/);
    for (const f of ['dist-lib/multi-turn-rl-plate.js', 'dist-lib/multi-turn-rl-plate.d.ts', 'dist-lib/training.worker.js', 'dist-lib/style.css', 'CHANGELOG.md']) expect(files).toContain(f);
    // dist-lib/assets/ is a complete asset-base: public/'s layout, and the one .wasm the worker loads.
    const assets = files.filter((f) => f.startsWith('dist-lib/assets/')).map((f) => f.slice('dist-lib/assets/'.length));
    expect(assets).toEqual([
      'checkpoints/agent/manifest.json', 'checkpoints/agent/weights.bin', 'checkpoints/pretrained/manifest.json', 'checkpoints/pretrained/weights.bin',
      'reference-runs.json', 'tfjs-backend-wasm-simd.wasm',
    ]);
    expect(files.filter((f) => /\.(map|ts)$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    // The weights travel in byte planes (smaller once gzipped) and give back public/'s very bits.
    for (const kind of ['agent', 'pretrained']) {
      const shipped = readFileSync(join(apps.vite, `node_modules/multi-turn-rl-plate/dist-lib/assets/checkpoints/${kind}/weights.bin`));
      const plain = Buffer.from(fromBytePlanes(shipped.buffer.slice(shipped.byteOffset, shipped.byteOffset + shipped.byteLength) as ArrayBuffer));
      expect(plain.equals(readFileSync(join(ROOT, `public/checkpoints/${kind}/weights.bin`))), kind).toBe(true);
    }
    const big = packed.files.filter((f) => /\.(bin|wasm)$/.test(f.path)).map((f) => `${f.path} ${f.size} B`);
    expect(packed.size, `tarball ${packed.size} B, budget ${TARBALL_BUDGET} B; the weights and the .wasm barely compress (${big.join(', ')})`).toBeLessThanOrEqual(TARBALL_BUDGET);
    const pkg = JSON.parse(readFileSync(join(apps.vite, 'node_modules/multi-turn-rl-plate/package.json'), 'utf8'));
    expect(pkg.peerDependencies).toMatchObject({ react: expect.any(String), 'react-dom': expect.any(String) });
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['@tensorflow/tfjs-backend-cpu', '@tensorflow/tfjs-backend-wasm', '@tensorflow/tfjs-backend-webgl', '@tensorflow/tfjs-backend-webgpu', '@tensorflow/tfjs-core', 'd3']);
  });

  it('ships the worker as its own module, started by the literal that Vite and webpack recognise, and tfjs by name', () => {
    const lib = join(apps.vite, 'node_modules/multi-turn-rl-plate/dist-lib');
    const main = readFileSync(join(lib, 'multi-turn-rl-plate.js'), 'utf8');
    expect(main).toMatch(/new Worker\(new URL\("\.\/training\.worker\.js",import\.meta\.url\),\{type:"module"/);
    for (const file of readdirSync(lib).filter((f) => f.endsWith('.js'))) {
      const code = readFileSync(join(lib, file), 'utf8');
      // tfjs and d3 stay imports for the consumer's bundler to resolve and split, never copies.
      expect(code, file).not.toContain(TFJS_CODE);
      expect(code, file).not.toMatch(/__PLATE_WORKER_/);
      // A production build whoever packs it (vitest runs npm pack with NODE_ENV=test).
      expect(code, file).not.toContain('react/jsx-dev-runtime');
    }
    const worker = readFileSync(join(lib, 'training.worker.js'), 'utf8');
    for (const b of ['wasm', 'webgl', 'webgpu']) expect(worker).toContain(`import("@tensorflow/tfjs-backend-${b}")`);
  });
});

describe('in a fresh Vite react-ts app', () => {
  it('type-checks the consumer’s TSX under strict, against declarations that catch wrong props', () => {
    expect(() => timed('tsc', () => appTool(apps.vite, 'tsc', ['--noEmit', '-p', '.']))).not.toThrow();
  });

  it('builds with its own vite build: the worker with chunks of its own (one per backend), the files with hashed names', async () => {
    const { dir } = timed('vite build', () => buildApp('vite', apps.vite));
    const assets = readdirSync(join(dir, 'assets'));
    const hashed = (re: RegExp) => assets.filter((f) => re.test(f));
    expect(hashed(/^training\.worker-[\w-]+\.js$/)).toHaveLength(1);
    expect(hashed(/^tfjs-backend-wasm-simd-[\w-]+\.wasm$/)).toHaveLength(1);
    expect(hashed(/\.wasm$/), 'only the SIMD .wasm is emitted').toHaveLength(1);
    expect(hashed(/^weights-[\w-]+\.bin$/)).toHaveLength(2);
    expect(hashed(/^reference-runs-[\w-]+\.json$/)).toHaveLength(1);
    expectSplit(dir, assets.filter((f) => f.endsWith('.js')).map((f) => `assets/${f}`));
  });

  it('served from a sub-path, the component trains a 2-step run, fetching WASM’s code and no other backend’s', async () => {
    const s = await site('vite', join(apps.vite, 'dist'));
    const v = await s.visit(browser, 'index.html', (p) => statusWord(p, 'Finished'));
    visits.vite = v;
    expect(await v.page.locator('h1').innerText()).toBe(PLATE.title);
    expect(await v.page.locator('a.xref').first().getAttribute('href')).toMatch(/^\/volume\/plates\/[\w.]+\/$/);
    expect(await v.page.locator('.chart-heldOut svg[role="img"]').getAttribute('aria-label')).toMatch(/^Held-out success, step 2 of 2: \d+%$/);
    expect(await v.page.locator('.band').count()).toBeGreaterThan(0);
    expect(v.backends).toEqual(['wasm']);
    expectClean(v);
    await v.page.context().close();
  });

  it('runs two plates as custom elements on one page, each with its own worker and calculator', async () => {
    const s = await site('vite', join(apps.vite, 'dist'));
    const v = await s.visit(browser, 'elements.html', async (p) => {
      for (const id of ['#first', '#second']) await statusWord(p, 'Finished', id); // each trains while in view
    });
    for (const [id, tone] of [['#first', 'reliable'], ['#second', 'faulty']] as const) {
      expect(await v.page.locator(`${id} .chart-reward .points.tone-${tone} circle`).count()).toBe(2);
    }
    expect(v.page.workers()).toHaveLength(2);
    expectClean(v);
    await v.page.context().close();
  });

  it('trains in its own dev server too, on a fresh cache: the page loads once, with no error', async () => {
    const logged: string[] = [];
    const server = await devServer(apps.vite, logged);
    try {
      const url = server.resolvedUrls!.local[0]!;
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const watched = watch(context, page, new URL(url).origin);
      let loads = 0;
      page.on('load', () => loads++);
      const t0 = performance.now();
      await page.goto(`${url}index.html`);
      await statusWord(page, 'Finished');
      seconds['vite dev'] = (performance.now() - t0) / 1000;
      expect(loads, 'page loads').toBe(1);
      expectClean(watched);
      expect(logged.filter((m) => /dependency scan|reloading|new dependencies optimized|error/i.test(m)), 'dev-server messages').toEqual([]);
      await context.close();
    } finally {
      await server.close();
    }
  });
});

describe('in a fresh webpack 5 app (plain JavaScript, css-loader and style-loader)', () => {
  it('builds with its own webpack, with nothing to say about the plate: the worker with chunks of its own, the files emitted', () => {
    const { dir, log } = timed('webpack', () => buildApp('webpack', apps.webpack));
    // webpack's size hints (any asset over 244 KiB: the weights, the .wasm) are about sizes, not the plate's code.
    const hint = /^WARNING in (asset size limit|entrypoint size limit|webpack performance recommendations)/;
    expect(log.split(/\n(?=WARNING|ERROR)/).filter((w) => /^(WARNING|ERROR)/.test(w) && !hint.test(w)), 'warnings and errors').toEqual([]);
    const files = readdirSync(dir);
    expect(files.filter((f) => f.endsWith('.wasm'))).toHaveLength(1);
    expect(files.filter((f) => f.endsWith('.bin'))).toHaveLength(2);
    expectSplit(dir, files.filter((f) => f.endsWith('.js')));
  });

  it('served from a sub-path, the element trains a 2-step run, fetching WASM’s code and no other backend’s', async () => {
    const s = await site('webpack', join(apps.webpack, 'dist'));
    const v = await s.visit(browser, 'index.html', (p) => statusWord(p, 'Finished', 'plate-multi-turn-rl'));
    visits.webpack = v;
    expect(await v.page.locator('plate-multi-turn-rl h1').innerText()).toBe(PLATE.title);
    expect(await v.page.locator('.chart-heldOut svg[role="img"]').getAttribute('aria-label')).toMatch(/^Held-out success, step 2 of 2: \d+%$/);
    expect(v.backends).toEqual(['wasm']);
    expectClean(v);
    await v.page.context().close();
  });

  it('fetches no backend’s code that is not tried: with backend="cpu", neither WASM’s code nor its binary', async () => {
    const s = await site('webpack', join(apps.webpack, 'dist'));
    const html = readFileSync(join(apps.webpack, 'dist/index.html'), 'utf8').replace(' autorun steps="2"', ' backend="cpu"');
    writeFileSync(join(apps.webpack, 'dist/cpu.html'), html);
    const v = await s.visit(browser, 'cpu.html', (p) => statusWord(p, 'Ready', 'plate-multi-turn-rl'));
    expect(await v.page.locator('.status-backend strong').innerText()).toBe('plain JavaScript (CPU)');
    expect(v.backends).toEqual([]);
    expect(v.files.filter((f) => f.path.endsWith('.wasm'))).toEqual([]);
    expectClean(v);
    await v.page.context().close();
  });
});

describe('a site that hosts the files and the worker itself', () => {
  it('with asset-base and worker-url, the plate loads both from where the site put them, and trains', async () => {
    const dist = join(apps.webpack, 'dist');
    // The README's recipe: a copy of the package's dist-lib/assets/ …
    cpSync(join(apps.webpack, 'node_modules/multi-turn-rl-plate/dist-lib/assets'), join(dist, 'plate-files'), { recursive: true });
    // … and an ES-module build of multi-turn-rl-plate/worker with its chunks (here, the Vite app's).
    cpSync(join(apps.vite, 'dist/assets'), join(dist, 'own-worker'), { recursive: true });
    const worker = readdirSync(join(dist, 'own-worker')).find((f) => /^training\.worker-[\w-]+\.js$/.test(f))!;
    const html = readFileSync(join(dist, 'index.html'), 'utf8').replace(' autorun', ` autorun asset-base="plate-files/" worker-url="own-worker/${worker}"`);
    writeFileSync(join(dist, 'hosted.html'), html);
    const s = await site('webpack', dist);
    const v = await s.visit(browser, 'hosted.html', (p) => statusWord(p, 'Finished', 'plate-multi-turn-rl'));
    const paths = v.files.map((f) => f.path);
    expect(paths).toContain(`own-worker/${worker}`);
    for (const f of ['checkpoints/agent/manifest.json', 'checkpoints/agent/weights.bin', 'tfjs-backend-wasm-simd.wasm', 'reference-runs.json']) expect(paths).toContain(`plate-files/${f}`);
    expect(paths.filter((p) => /\.(bin|wasm)$/.test(p) && !p.startsWith('plate-files/')), 'files from the bundle').toEqual([]);
    expect(await v.page.locator('.status-note').count()).toBe(0);
    expectClean(v);
    await v.page.context().close();
  });
});

describe('the budgets', () => {
  it('a first visit through the package costs at most the standalone page’s JavaScript + 10% (gzipped, until a 2-step run finishes)', async () => {
    pageDir = timed('page build', buildStandalone);
    const s = await site('standalone', pageDir);
    const v = await s.visit(browser, 'index.html?steps=2&autorun=1', (p) => statusWord(p, 'Finished'));
    visits.standalone = v;
    expect(v.backends).toEqual(['wasm']);
    expectClean(v);
    await v.page.context().close();
    for (const k of ['vite', 'webpack'] as const) {
      expect(visits[k], `the ${k} app's visit (an earlier test)`).toBeDefined();
      expect(visits[k]!.jsGz, `${k}: ${visits[k]!.jsGz} B of JavaScript against the page's ${v.jsGz} B`).toBeLessThanOrEqual(FIRST_VISIT_SLACK * v.jsGz);
    }
  });
});

/** A tool from the app's own node_modules/.bin. */
function appTool(app: string, tool: string, args: string[]): string {
  return execFileSync(join(app, 'node_modules/.bin', tool), args, { cwd: app, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * The worker's backends were split by the consumer's bundler: each of WASM, WebGL and WebGPU in a
 * chunk of its own (loaded when the worker tries that backend), none in the worker's entry.
 */
function expectSplit(dir: string, jsFiles: string[]) {
  const holding = (marker: string) => jsFiles.filter((f) => readFileSync(join(dir, f), 'utf8').includes(marker));
  const chunks = Object.values(BACKEND_MARKERS).map(holding);
  for (const [i, c] of chunks.entries()) expect(c, Object.keys(BACKEND_MARKERS)[i]).toHaveLength(1);
  expect(new Set(chunks.flat()).size, 'one chunk per backend').toBe(3);
}

async function devServer(app: string, logged: string[]): Promise<ViteDevServer> {
  // The app's own Vite, with its own config, on an empty pre-bundling cache (a fresh install has none).
  const vite = (await import(pathToFileURL(join(app, 'node_modules/vite/dist/node/index.js')).href)) as typeof import('vite');
  const logger: Logger = vite.createLogger('info');
  for (const level of ['info', 'warn', 'error'] as const) {
    const write = logger[level].bind(logger);
    logger[level] = (msg, options) => {
      logged.push(msg);
      if (level !== 'info') write(msg, options);
    };
  }
  const server = await vite.createServer({ root: app, configFile: join(app, 'vite.config.ts'), customLogger: logger, server: { host: '127.0.0.1', port: 0, strictPort: false } });
  await server.listen();
  return server;
}
