// The package on the oldest React its peer range claims (18.0.0: test/sites/apps/react18/, the
// esbuild site on that React), so the range says what the code needs: installed from the tarball,
// built, the component (in StrictMode) and the custom element each train 2 steps in Chromium with
// no console error, an attribute changed later acts as the matching control, and the component
// renders on a server with nothing logged. (A site on React 19.0 or 19.1 once built and then threw
// "useEffectEvent is not a function": the hook is 19.2's.)
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch } from '../browser/chromium';
import { buildSite, installSite, ROOT, serveBuilt, versions, type Running } from '../browser/consumers';
import { statusWord, visit } from '../browser/first-visit';
import { removeSite } from '../browser/site';

const exec = promisify(execFile);
const packed = inject('packed');
const peer = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { peerDependencies: { react: string } })
  .peerDependencies.react;

let work: string;
let site: string;
let server: Running;
let browser: Browser;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'plate-react-floor-'));
  site = await installSite('react18', work, packed.tarball);
  const { dir } = await buildSite('react18', site);
  server = await serveBuilt('react18', site, dir);
  browser = await launch();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (work) removeSite(work);
});

const heldOut = (page: Page) => page.locator('.chart-heldOut svg[role="img"]').getAttribute('aria-label');

describe('a site on the oldest React the peer range claims', () => {
  it('is that React: the peer range’s lowest version, installed', () => {
    const lowest = /^\^(\d+\.\d+\.\d+)/.exec(peer)![1];
    expect(versions('react18', site)).toMatchObject({ react: lowest, 'react-dom': lowest });
  });

  it('trains the component 2 steps, in StrictMode, with no console error', async () => {
    const v = await visit(browser, `${server.url}index.html`, (p) => statusWord(p, 'Finished'));
    expect(await heldOut(v.page)).toMatch(/^Held-out success, step 2 of 2: \d+%$/);
    expect(v.errors, 'console errors').toEqual([]);
    expect(v.foreign, 'requests to another origin').toEqual([]);
    await v.page.context().close();
  });

  it('trains the custom element, and takes an attribute changed after the run as its switch: waiting for Run', async () => {
    const v = await visit(browser, `${server.url}elements.html`, (p) => statusWord(p, 'Finished'));
    const { page } = v;
    expect(await page.locator('.chart-legend').innerText()).toContain('this run: faulty');
    await page.evaluate(() => document.querySelector('plate-multi-turn-rl')!.setAttribute('masking', 'off'));
    // After a finished run, as with the switch, the setting waits for Run and says so.
    await page.locator('.settings-wait').waitFor();
    expect(await page.getByRole('switch', { name: /Observation masking/ }).isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForFunction(
      () => document.querySelector('.chart-legend')?.textContent?.includes('this run: faulty, masking off'),
      null,
      { timeout: 60_000 },
    );
    await statusWord(page, 'Finished');
    expect(await page.getByRole('switch', { name: /Observation masking/ }).isChecked()).toBe(false);
    expect(v.errors, 'console errors').toEqual([]);
    await page.context().close();
  });

  it('renders the component on a server with nothing logged (no useLayoutEffect warning)', async () => {
    const { stdout } = await exec(process.execPath, ['src/server.mjs'], { cwd: site, encoding: 'utf8' });
    expect(JSON.parse(stdout)).toMatchObject({ plate: true, logged: [] });
  });
});
