// The package's self-contained folder as a site with no bundler uses it (test/sites/apps/static/: a
// hand-written page, the folder taken out of the tarball): a copy elsewhere found by asset-base
// and worker-url; each file that does not load named in the status with its URL and the setting
// that fixes it; and ten plates on one page that fetch nothing until the reader comes near one.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FOLDER } from '../../src/ui/assets';
import { launch } from '../browser/chromium';
import { installSite } from '../browser/consumers';
import { statusWord, visit } from '../browser/first-visit';
import { removeSite, serve } from '../browser/site';

const packed = inject('packed');
const DOCS = 'docs/embedding.md, “Hosting the files yourself”';
let work: string;
let site: string;
let url: string;
let close: () => void;
let browser: Browser;

/** A page of the site: the element with these attributes, after the folder's one script. */
function page(name: string, attributes: string, count = 1): string {
  const plates = Array.from(
    { length: count },
    (_, i) => `<plate-multi-turn-rl id="p${i + 1}" ${attributes}></plate-multi-turn-rl>`,
  );
  // Three viewports between plates: only the first figure is near the screen when the page opens.
  const body = plates.join('\n<div style="height: 300vh"></div>\n');
  writeFileSync(
    join(site, name),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${name}</title><script type="module" src="plate/${FOLDER.element}"></script></head><body>${body}</body></html>`,
  );
  return name;
}

/** A copy of the folder at `dir` without `missing`. */
function copyWithout(dir: string, missing: string): void {
  cpSync(join(site, 'plate'), join(site, dir), { recursive: true });
  rmSync(join(site, dir, missing));
}

const statusText = (p: Page, id = '#p1') => p.locator(`${id} .status`).innerText();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'plate-folder-'));
  site = await installSite('static', work, packed.tarball);
  const served = await serve(site);
  url = served.url;
  close = () => served.server.close();
  browser = await launch();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  close?.();
  if (work) removeSite(work);
});

describe('a copy of the folder elsewhere on the site', () => {
  it('with asset-base, the plate takes its worker, backends and files from there, and trains', async () => {
    cpSync(join(site, 'plate'), join(site, 'files/plate-copy'), { recursive: true });
    const v = await visit(browser, url + page('hosted.html', 'autorun steps="2" asset-base="files/plate-copy/"'), (p) =>
      statusWord(p, 'Finished', '#p1'),
    );
    const paths = v.files.map((f) => f.path.slice(new URL(url).pathname.length));
    for (const f of [
      FOLDER.worker,
      FOLDER.backends.wasm,
      FOLDER.wasm,
      `${FOLDER.checkpoints.agent}weights.bin`,
      FOLDER.referenceRuns,
    ])
      expect(paths).toContain(`files/plate-copy/${f}`);
    expect(
      paths.filter((p) => p.startsWith('plate/')).sort(),
      'from the page’s own copy: its script and stylesheet',
    ).toEqual([`plate/${FOLDER.element}`, `plate/${FOLDER.stylesheet}`].sort());
    expect(await v.page.locator('.status-note').count()).toBe(0);
    expect(v.errors).toEqual([]);
    await v.page.context().close();
  });

  it('with worker-url, the worker comes from there and the files from the folder beside the script', async () => {
    const v = await visit(
      browser,
      url + page('worker.html', 'autorun steps="2" worker-url="files/plate-copy/training.worker.mjs"'),
      (p) => statusWord(p, 'Finished', '#p1'),
    );
    const paths = v.files.map((f) => f.path.slice(new URL(url).pathname.length));
    expect(paths).toContain(`files/plate-copy/${FOLDER.worker}`);
    expect(paths).toContain(`plate/${FOLDER.backends.wasm}`);
    expect(paths).not.toContain(`plate/${FOLDER.worker}`);
    expect(v.errors).toEqual([]);
    await v.page.context().close();
  });
});

describe('a file that does not load is named, with its URL and the setting that fixes it', () => {
  it('the worker’s script: said to be missing (HTTP 404), not "crashed", with worker-url and the docs', async () => {
    const v = await visit(browser, url + page('no-worker.html', 'worker-url="nowhere/training.worker.mjs"'), (p) =>
      statusWord(p, 'Stopped', '#p1').catch(() => undefined),
    );
    const text = await statusText(v.page);
    expect(text).toContain(`its script ${new URL('nowhere/training.worker.mjs', url).href} did not load (HTTP 404)`);
    expect(text).toContain('set worker-url (workerUrl)');
    expect(text).toContain(DOCS);
    expect(text).not.toContain('crashed');
    await v.page.context().close();
  });

  it('tfjs’s .wasm: WASM is passed over in the open (the plate trains on, on the CPU), with asset-base and the docs', async () => {
    copyWithout('no-wasm', FOLDER.wasm);
    const v = await visit(browser, url + page('no-wasm.html', 'asset-base="no-wasm/"'), (p) =>
      statusWord(p, 'Ready', '#p1'),
    );
    const note = await v.page.locator('#p1 .status-note').innerText();
    expect(note).toBe(
      `WebAssembly could not start: ${new URL(`no-wasm/${FOLDER.wasm}`, url).href} did not load (HTTP 404); set asset-base (assetBase) to where your site serves a copy of the package’s plate folder (${DOCS}).`,
    );
    expect(await v.page.locator('#p1 .status-backend strong').innerText()).toBe('plain JavaScript (CPU)');
    await v.page.context().close();
  });

  it('a backend’s module: the same, naming the module', async () => {
    copyWithout('no-backend', FOLDER.backends.wasm);
    const v = await visit(browser, url + page('no-backend.html', 'asset-base="no-backend/"'), (p) =>
      statusWord(p, 'Ready', '#p1'),
    );
    expect(await v.page.locator('#p1 .status-note').innerText()).toContain(
      `${new URL(`no-backend/${FOLDER.backends.wasm}`, url).href} did not load (HTTP 404); set asset-base`,
    );
    await v.page.context().close();
  });

  it('a checkpoint’s weights: an error naming the file, with asset-base and the docs', async () => {
    copyWithout('no-weights', `${FOLDER.checkpoints.agent}weights.bin`);
    const v = await visit(browser, url + page('no-weights.html', 'asset-base="no-weights/"'), (p) =>
      statusWord(p, 'Error', '#p1').catch(() => undefined),
    );
    const alert = await v.page.locator('#p1 [role="alert"]').innerText();
    expect(alert).toContain(
      `${new URL(`no-weights/${FOLDER.checkpoints.agent}weights.bin`, url).href}: is missing (HTTP 404); set asset-base (assetBase)`,
    );
    expect(alert).toContain(DOCS);
    await v.page.context().close();
  });

  it('the reference runs: a note that the band is not shown, naming the file, with asset-base; the plate is Ready', async () => {
    copyWithout('no-reference', FOLDER.referenceRuns);
    const v = await visit(browser, url + page('no-reference.html', 'asset-base="no-reference/"'), (p) =>
      statusWord(p, 'Ready', '#p1'),
    );
    const note = v.page.locator('#p1 .status-note', { hasText: 'reference band' });
    await note.waitFor();
    expect(await note.innerText()).toContain(
      `${new URL(`no-reference/${FOLDER.referenceRuns}`, url).href} did not load (HTTP 404); set asset-base`,
    );
    await v.page.context().close();
  });
});

describe('ten plates on one page', () => {
  it('start nothing until the reader comes near one: no worker, no weights, no .wasm, no reference runs for the plates far below', async () => {
    const heavy = (paths: string[]) => paths.filter((p) => /\.(mjs|wasm|bin)$|reference-runs/.test(p));
    const v = await visit(browser, url + page('ten.html', '', 10), (p) => statusWord(p, 'Ready', '#p1'));
    // By the time the first plate is Ready, every plate's first look at the screen was long taken.
    expect(await v.page.locator('plate-multi-turn-rl .status-word').count()).toBe(10);
    expect(v.page.workers(), 'the first plate’s worker alone').toHaveLength(1);
    const first = heavy(v.files.map((f) => f.path));
    expect(first.filter((p) => p.endsWith('weights.bin'))).toHaveLength(1);
    expect(first.filter((p) => p.endsWith(FOLDER.worker))).toHaveLength(1);
    // The fifth, scrolled to, starts its own; the ones between stay as they were.
    await v.page.locator('#p5 .plate-figure').scrollIntoViewIfNeeded();
    await v.page.waitForFunction(() => document.querySelector('#p5 .status-word')?.textContent === 'Ready', undefined, {
      timeout: 60_000,
    });
    expect(v.page.workers()).toHaveLength(2);
    for (const id of ['#p2', '#p3', '#p4', '#p6', '#p10'])
      expect(await v.page.locator(`${id} .status-word`).innerText(), id).toBe('Loading');
    expect(v.errors).toEqual([]);
    await v.page.context().close();
  });
});
