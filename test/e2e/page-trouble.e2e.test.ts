// The plate page in real headless Chromium when things go wrong or are done by keyboard: a dead
// worker and Restart, focus, a broken reference file, a strict CSP. (“Pausing…” is with “Stepping…”
// in explain.e2e; axe runs there on a step's push and here in page-runs on a finished run.)
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATE } from '../../src/plate/text';
import { watch } from '../browser/chromium';
import { serve } from '../browser/site';
import { expectClean, openPart, plateBrowser, showFigure, statusWord, waitForStatus } from './page-helpers';

const { browser, site, open, openFinished } = plateBrowser();

describe('the plate page, when things go wrong or are done by keyboard', () => {
  it('says the trainer stopped when its worker dies silently mid-run, and Restart brings back a working one', async () => {
    const o = await open('index.html?autorun=1&faulty=1');
    const { page } = o;
    await showFigure(page);
    await page.waitForFunction(() => document.querySelectorAll('.chart-heldOut .points circle').length >= 3, null, {
      timeout: 90_000,
    });
    void page
      .workers()[0]!
      .evaluate(() => self.close())
      .catch(() => {}); // no error event, no more messages
    await waitForStatus(page, 'Stopped', 60_000); // the watchdog's silence: ~5 s, more on a slower machine
    expect(await page.locator('.status-error').innerText()).toMatch(
      /The training worker stopped: it sent nothing for \d+ s/,
    );
    await page.getByRole('button', { name: 'Restart the trainer' }).click();
    await waitForStatus(page, 'Ready');
    // The reader's settings are kept: the next run uses the faulty calculator.
    expect(await page.getByRole('switch', { name: /Faulty calculator/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForFunction(
      () => document.querySelectorAll('.chart-reward .points.tone-faulty circle').length >= 2,
      null,
      { timeout: 90_000 },
    );
    expectClean(o);
  });

  it('keeps the plate’s text and says why when the figure’s code cannot be loaded', async () => {
    const page = await browser().newPage();
    await page.route(/LiveFigure-[^/]*\.js$/, (route) => route.abort('connectionfailed'));
    await page.goto(site().url + 'index.html');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(
      /^The live figure could not be loaded \(.+\)\. The plate’s text is all here; reload the page to try again\.$/,
    );
    expect(await page.locator('h1.title').innerText()).toBe(PLATE.title);
    await page.close();
  });

  it('keeps keyboard focus on the control that was used when it cannot act any more', async () => {
    const o = await openFinished('index.html?steps=2&autorun=1');
    const { page } = o;
    const reset = page.getByRole('button', { name: 'Reset' });
    await reset.focus();
    await page.keyboard.press('Enter');
    await waitForStatus(page, 'Ready');
    expect(await reset.evaluate((b) => b === document.activeElement)).toBe(true);
    expect(await reset.getAttribute('aria-disabled')).toBe('true');

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await waitForStatus(page, 'Finished');
    await openPart(page, 'step');
    const next = page.getByRole('button', { name: 'Next group' });
    await next.focus();
    for (let i = 0; i < 8; i++) await page.keyboard.press('Enter');
    expect(await page.locator('.group-nav').innerText()).toContain('group 8 of 8');
    expect(await next.evaluate((b) => b === document.activeElement)).toBe(true);
    expectClean(o);
  });

  it('says the time left while a slow run trains (?backend=cpu), and once what still serves on a slow engine', async () => {
    const o = await open('index.html?backend=cpu&autorun=1');
    const { page } = o;
    await showFigure(page);
    // The first timed step gives the pace (step 0 only measures): then the time left appears.
    const left = page.locator('.status-left');
    await left.waitFor({ timeout: 120_000 });
    expect(await left.innerText()).toMatch(/^· about \d+ (s|min) to step 40$/);
    expect(await statusWord(page)).toBe('Training');
    // The note says a step takes seconds exactly when the backend's line does ("640 ms", "3.6 s" a step).
    // The time left may come from the first step's parts, before the backend's line has a step's pace.
    const speed = page.locator('.status-speed', { hasText: / (ms|s) a step/ });
    await speed.waitFor({ timeout: 120_000 });
    const [, n, unit] = /([\d.]+) (ms|s) a step/.exec(await speed.innerText())!;
    const ms = Number(n) * (unit === 's' ? 1000 : 1);
    expect(await page.locator('.status-slow').count()).toBe(ms >= 1000 ? 1 : 0);
    if (ms >= 1000)
      expect(await page.locator('.status-slow').innerText()).toMatch(/^This browser trains slowly here: /);
    expectClean(o);
  });

  it('says in a sentence, not an alert, that the reference band is missing when reference-runs.json is broken', async () => {
    const context = await browser().newContext();
    await context.route('**/reference-runs*.json', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"steps": 40, "runs": [' }),
    );
    const page = await context.newPage();
    await page.goto(site().url + 'index.html');
    await waitForStatus(page, 'Ready');
    const note = page.locator('.status-note', { hasText: 'reference band' });
    await note.waitFor();
    // Named by the URL it came from, since a bundler serves it under a hashed name.
    expect(await note.innerText()).toMatch(
      /^The precomputed reference band is not shown: http:\/\/\S+\/reference-runs-[\w-]+\.json is not valid JSON\. Your own run is not affected\.$/,
    );
    expect(await page.locator('[role="alert"]').count()).toBe(0);
    await context.close();
  });
});

describe('the plate page under a strict Content-Security-Policy', () => {
  const CSP =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'";
  let strict: { url: string; server: Server };

  beforeAll(async () => {
    strict = await serve(site().dir, { 'content-security-policy': CSP });
  });
  afterAll(() => new Promise<void>((done) => strict.server.close(() => done())));

  it('loads, trains a short run and logs no error', async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    const watched = watch(context, page, new URL(strict.url).origin);
    await page.goto(strict.url + 'index.html?steps=2&autorun=1');
    await showFigure(page);
    await waitForStatus(page, 'Finished');
    expect(await page.locator('.band').count()).toBeGreaterThan(0);
    expect(watched.errors).toEqual([]); // a CSP violation is a console error
    expect(watched.foreign).toEqual([]);
    await context.close();
  });
});
