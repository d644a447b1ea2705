// The plate page in real headless Chromium: the text, a short live run on both charts, the
// faulty switch drawn over the reliable run, the episode viewer, pausing out of sight, URL
// notes, embedding, a phone-sized screen. Every page is watched for console errors and for
// requests that leave the page's origin. Screenshots go to test-results/.
import { mkdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runWorkshop } from '../../scripts/lib/run-workshop';
import { PLATE } from '../../src/plate/text';
import { pct } from '../../src/ui/format';
import { launch, watch } from '../../scripts/lib/browser/chromium';
import { serve } from '../../scripts/lib/browser/site';
import { useWasm } from '../tf';

const RESULTS = resolve(import.meta.dirname, '../../test-results');
let browser: Browser;
let site: { url: string; server: Server; dir: string };

beforeAll(async () => {
  await useWasm(); // the switch tests run the Node workshop beside the page
  const dir = inject('pageDir'); // built once for every browser file (test/e2e/setup.ts)
  site = { ...(await serve(dir)), dir };
  browser = await launch();
  mkdirSync(RESULTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  if (site) await new Promise((done) => site.server.close(done));
});

interface Opened {
  page: Page;
  errors: string[];
  foreign: string[];
}

async function open(path: string, viewport = { width: 1280, height: 900 }): Promise<Opened> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const watched = watch(context, page, new URL(site.url).origin);
  await page.goto(site.url + path);
  return { page, ...watched };
}

const statusWord = (page: Page) => page.locator('.status-word').innerText();
const waitForStatus = (page: Page, word: string, timeout = 90_000) =>
  page.waitForFunction((w) => document.querySelector('.status-word')?.textContent === w, word, {
    timeout,
    polling: 100,
  });
/** Autorun waits while the figure is out of view (auto-pause): bring it into view. */
const showFigure = (page: Page) => page.locator('.plate-figure').scrollIntoViewIfNeeded();

/** Opens `path` (an autorun query), brings the figure into view and waits for the run to finish. */
async function openFinished(
  path: string,
  viewport?: { width: number; height: number },
  timeout?: number,
): Promise<Opened> {
  const o = await open(path, viewport);
  await showFigure(o.page);
  await waitForStatus(o.page, 'Finished', timeout);
  return o;
}
const chartLabel = (page: Page, chart: 'heldOut' | 'reward') =>
  page.locator(`.chart-${chart} svg[role="img"]`).getAttribute('aria-label');

function expectClean(o: Opened) {
  expect(o.errors, 'console errors').toEqual([]);
  expect(o.foreign, 'requests to another origin').toEqual([]);
}

describe('the plate page', () => {
  it('renders the title, every term, the sources, and loads the trainer from its own origin', async () => {
    const o = await open('index.html');
    const { page } = o;
    expect(await page.locator('h1').innerText()).toBe(PLATE.title);
    expect(await page.locator('.lede').innerText()).toBe(PLATE.lede);
    for (const t of PLATE.terms.items) {
      await expect(page.locator('dt', { hasText: t.name }).count()).resolves.toBe(1);
      await expect(page.locator('dd', { hasText: t.definition }).count()).resolves.toBe(1);
    }
    const hrefs = await page.locator('.sources a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual([
      'https://arxiv.org/abs/2402.03300',
      'https://arxiv.org/abs/2402.19446',
      'https://arxiv.org/abs/2507.20534',
    ]);
    expect(
      await page
        .locator('.xref')
        .first()
        .evaluate((e) => e.tagName),
    ).toBe('SPAN');
    await waitForStatus(page, 'Ready');
    expect(await page.locator('.status-backend summary').innerText()).toMatch(/^\S.* · why$/);
    expect(await chartLabel(page, 'heldOut')).toBe('Held-out success, no data yet');
    await page.locator('.term').first().focus();
    expect(await page.locator('.term-tip').innerText()).toContain(PLATE.terms.items[0]!.definition);
    expectClean(o);
    await page.context().close();
  });

  it('runs ?steps=3&autorun=1 on both charts, then a faulty run over the dimmed reliable one', async () => {
    const o = await openFinished('index.html?steps=3&autorun=1');
    const { page } = o;
    expect(await chartLabel(page, 'heldOut')).toMatch(/^Held-out success, step 3 of 3: \d+%$/);
    expect(await chartLabel(page, 'reward')).toMatch(/^Mean reward, step 3 of 3: \d+%$/);
    expect(await page.locator('.chart-heldOut .points circle').count()).toBe(4);
    expect(await page.locator('.chart-reward .points circle').count()).toBe(3);
    for (const text of await page.getByTestId('readout').allInnerTexts()) expect(text).toMatch(/^\d+% → \d+%$/);

    // Reading a point from the keyboard.
    await page.locator('.chart-heldOut .chart').focus();
    await page.keyboard.press('ArrowLeft');
    expect(await page.locator('.chart-heldOut .probe text').textContent()).toMatch(/^step 2 · \d+%$/);

    // The episode viewer: the model's and the environment's characters look different.
    const look = (sel: string) =>
      page
        .locator(`.episode-table ${sel}`)
        .first()
        .evaluate((e) => {
          const s = getComputedStyle(e);
          return `${s.color} ${s.backgroundColor} ${s.fontWeight} ${s.fontStyle}`;
        });
    expect(await page.locator('.episode-table tbody tr').count()).toBe(8);
    expect(await look('.by-m')).not.toBe(await look('.by-e'));
    await page.getByRole('button', { name: 'Next group' }).click();
    expect(await page.locator('.group-nav').innerText()).toContain('group 2 of 8');

    await page.getByRole('switch', { name: /Faulty calculator/ }).check();
    await page.waitForFunction(
      () => document.querySelectorAll('.chart-reward .points.tone-faulty circle').length === 3,
      null,
      { timeout: 90_000 },
    );
    await waitForStatus(page, 'Finished');
    for (const chart of ['heldOut', 'reward']) {
      expect(await page.locator(`.chart-${chart} path.series.tone-reliable.dim`).getAttribute('d')).toMatch(
        /^M[\d.]+,[\d.]+L/,
      );
      expect(await page.locator(`.chart-${chart} path.series.tone-faulty:not(.dim)`).getAttribute('d')).toMatch(
        /^M[\d.]+,[\d.]+L/,
      );
    }
    expect(await page.locator('.chart-legend').innerText()).toContain('earlier run: reliable');
    await page.screenshot({ path: join(RESULTS, 'page-1280.png'), fullPage: true });
    expectClean(o);
    await page.context().close();
  });

  it('pauses when the figure leaves the screen or the tab hides, and resumes when it returns', async () => {
    const o = await open('index.html?autorun=1');
    const { page } = o;
    const figure = page.locator('.plate-figure');
    await figure.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelectorAll('.chart-heldOut .points circle').length >= 2, null, {
      timeout: 90_000,
    });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await waitForStatus(page, 'Paused');
    expect(await page.locator('.status-why').innerText()).toMatch(/while the figure is out of view/);
    await figure.scrollIntoViewIfNeeded();
    await waitForStatus(page, 'Training');

    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitForStatus(page, 'Paused');
    expect(await page.locator('.status-why').innerText()).toMatch(/while this tab is hidden/);
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitForStatus(page, 'Training');

    // A reader's own pause is not undone by scrolling back; the status names the reader, and only the reader.
    await page.getByRole('button', { name: 'Pause' }).click();
    await waitForStatus(page, 'Paused');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await figure.scrollIntoViewIfNeeded();
    // The view's hold lets go; the reader's stays, and is the only one named.
    await page.waitForFunction(
      () => [...document.querySelectorAll('.status-why')].map((e) => e.getAttribute('data-holder')).join() === 'reader',
      null,
      { timeout: 10_000 },
    );
    expect(await statusWord(page)).toBe('Paused');
    expect(await page.getByRole('button', { name: 'Resume' }).count()).toBe(1);
    expectClean(o);
    await page.context().close();
  });

  it('trains on in view while the viewport grows to the whole page and back, and shrinks and grows (a screenshot, a zoom, a rotation)', async () => {
    // One delivery of the figure's observer can hold "out" and then "in" (the reader saw the run
    // stall at step 0 saying it was out of view). Each round: a full-page screenshot, the viewport
    // shrunk past the figure and grown back, then the run must take a step.
    const o = await open('index.html?steps=40&autorun=1');
    const { page } = o;
    await waitForStatus(page, 'Training');
    const stepNow = () =>
      page
        .getByTestId('status-step')
        .innerText()
        .then((t) => Number(/step (\d+)/.exec(t)?.[1] ?? -1));
    for (let round = 0; round < 8; round++) {
      await page.screenshot({ path: join(RESULTS, 'page-full-screenshot.png'), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 300 });
      await page.setViewportSize({ width: 1280, height: 900 });
      const at = await stepNow();
      if (at >= 38) break;
      await page.waitForFunction(
        (k) =>
          Number(
            /step (\d+)/.exec(document.querySelector('[data-testid="status-step"]')?.textContent ?? '')?.[1] ?? -1,
          ) > k,
        at,
        { timeout: 20_000 },
      );
    }
    expect(await page.locator('.status-why').count()).toBe(0);
    expectClean(o);
    await page.context().close();
  });

  it('says which backend won the race and lists every candidate’s measured time (?calibrate=all)', async () => {
    const o = await open('?calibrate=all');
    await waitForStatus(o.page, 'Ready', 120_000);
    // One short line; the race's details one click away.
    expect(await o.page.locator('.status-backend summary').innerText()).toBe('WebAssembly · why');
    await o.page.locator('.status-backend summary').click();
    const status = o.page.locator('.status-reason');
    await expect
      .poll(() => status.innerText())
      .toMatch(
        /^WASM \(SIMD, one thread\): the fastest of the 3 backends timed on a calibration step here \(WASM \(SIMD, one thread\) \d+ ms · /,
      );
    const why = await o.page.locator('.status-skipped li').allInnerTexts();
    expect(why).toHaveLength(2);
    expect(why.join('\n')).toMatch(
      /^WebGPU: .*\d+ ms.* \(WebGPU on a software adapter.*\), already clearly slower than WebAssembly’s \d+ ms$/m,
    );
    expect(why.join('\n')).toMatch(
      /^WebGL: .*\d+ ms.* \(WebGL on .*\), already clearly slower than WebAssembly’s \d+ ms$/m,
    );
    expectClean(o);
    await o.page.context().close();
  });

  it('ignores bad URL values with a visible note, and links cross-references given a pattern', async () => {
    const o = await open('index.html?seed=abc&steps=99&start=middle&xref=/volume/plates/{ref}');
    const notes = await o.page.locator('.status-note').allInnerTexts();
    expect(notes).toEqual([
      'Ignored seed=abc: expected a whole number from 0 to 2147483647.',
      'Ignored steps=99: expected a whole number from 1 to 40.',
      'Ignored start=middle: expected one of agent, pretrained, scratch.',
    ]);
    expect(await o.page.getByRole('radio', { name: /the fine-tuned agent/ }).isChecked()).toBe(true);
    expect(await o.page.locator('a.xref', { hasText: 'plate XIX.5' }).getAttribute('href')).toBe(
      '/volume/plates/XIX.5',
    );
    expectClean(o);
    await o.page.context().close();
  });

  it('posts its height to the page that embeds it, without page chrome', async () => {
    const o = await open('embed-host.html');
    const { page } = o;
    const message = await page.waitForFunction(
      () =>
        (window as unknown as { plateMessages: { type: string; plate: string; height: number }[] }).plateMessages.find(
          (m) => m.type === 'plate-height' && m.height > 500,
        ),
      null,
      { timeout: 30_000 },
    );
    expect(await message.jsonValue()).toMatchObject({ type: 'plate-height', plate: 'XXVI.3' });
    const frame = page.frameLocator('#plate');
    expect(await frame.locator('h1').innerText()).toBe(PLATE.title);
    expect(await frame.locator('.page-footer').count()).toBe(0);
    expectClean(o);
    await page.context().close();
  });

  it('meets the curves first: Run, Step, Reset and the faulty calculator, the charts within 250 px of the caption, the other switches under their heading below them', async () => {
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const o = await open('index.html', viewport);
      const { page } = o;
      await waitForStatus(page, 'Ready');
      await page.locator('.plate-figure figcaption').evaluate((e) => e.scrollIntoView({ block: 'start' }));
      const top = (sel: string) =>
        page
          .locator(sel)
          .first()
          .evaluate((e) => e.getBoundingClientRect().top);
      const bottom = (sel: string) =>
        page
          .locator(sel)
          .first()
          .evaluate((e) => e.getBoundingClientRect().bottom);
      const caption = await bottom('.plate-figure figcaption');
      const chart = await top('.plate-figure .chart svg');
      if (viewport.width === 1280) {
        expect(chart - caption).toBeLessThanOrEqual(250);
        await page.screenshot({ path: join(RESULTS, 'figure-first-view-1280.png') });
      }
      for (const control of ['button.run', 'button.step', '.switch.faulty'])
        expect(await bottom(control)).toBeLessThan(chart);
      expect(
        await page.locator('.status-backend summary').evaluate((e) => e.getBoundingClientRect().height),
      ).toBeLessThanOrEqual(30); // one line
      const switches = page.locator('.term-switches');
      expect(await switches.locator('h4').innerText()).toBe('Break the plate’s terms');
      for (const name of [/Observation masking/, /raw reward/, /Grader/, /Temperature/])
        expect(await switches.getByLabel(name).count()).toBe(1);
      expect(await top('.term-switches')).toBeGreaterThan(await bottom('.chart-reward'));
      expectClean(o);
      await page.context().close();
    }
  });

  it('prints the plate’s text, the charts with their readouts under them, the episodes, the arithmetic and the numbers, without controls or status', async () => {
    const o = await openFinished('index.html?steps=3&autorun=1');
    const { page } = o;
    await page.emulateMedia({ media: 'print' });
    await page.setViewportSize({ width: 718, height: 1000 }); // A4 less Chromium's default margins, in CSS px
    const shown = (sel: string) =>
      page
        .locator(sel)
        .evaluateAll((es) =>
          es.map((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'),
        );
    for (const sel of [
      '.controls',
      '.status',
      '.status-backend',
      '.term-switches',
      '.pipeline .choice',
      '.taught',
      '.ask',
      '.run-export',
      '.push-hint',
      '.group-nav button',
    ]) {
      expect(await shown(sel), sel).not.toContain(true);
    }
    for (const sel of ['h1', '.chart-row', '.episode-table', '.group-arithmetic', '.numbers', '.sources'])
      expect(await shown(sel), sel).not.toContain(false);
    const rows = await page.locator('.chart-row').evaluateAll((rs) =>
      rs.map((r) => {
        const svg = r.querySelector('svg')!.getBoundingClientRect();
        const readout = r.querySelector('.readout')!.getBoundingClientRect();
        return {
          apart: readout.top >= svg.bottom - 1 || readout.left >= svg.right - 1,
          within: svg.right <= r.getBoundingClientRect().right + 1,
          unbroken: getComputedStyle(r).breakInside,
        };
      }),
    );
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const r of rows) expect(r).toEqual({ apart: true, within: true, unbroken: 'avoid' });
    expect(await page.locator('.plate-figure').evaluate((e) => getComputedStyle(e).breakInside)).toBe('auto'); // the figure may start on page 1
    await page.pdf({ path: join(RESULTS, 'plate-a4.pdf'), format: 'A4', printBackground: true });
    expectClean(o);
    await page.context().close();
  });

  it('fits a 390 px screen without horizontal scrolling', async () => {
    const o = await openFinished('index.html?steps=3&autorun=1', { width: 390, height: 844 });
    const { page } = o;
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    const svgWidth = await page.locator('.chart-heldOut svg').evaluate((e) => e.getBoundingClientRect().width);
    expect(svgWidth).toBeLessThanOrEqual(390);
    expect(svgWidth).toBeGreaterThan(250);
    await page.screenshot({ path: join(RESULTS, 'page-390.png'), fullPage: true });
    expectClean(o);
    await page.context().close();
  });
});

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
    await waitForStatus(page, 'Stopped', 20_000);
    expect(await page.locator('.status-error').innerText()).toMatch(
      /The training worker stopped: it sent nothing for \d+ s/,
    );
    await page.getByRole('button', { name: 'Restart the trainer' }).click();
    await waitForStatus(page, 'Ready');
    // The reader's settings are kept: the next run uses the faulty calculator.
    expect(await page.getByRole('switch', { name: /Faulty calculator/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Run' }).click();
    await page.waitForFunction(
      () => document.querySelectorAll('.chart-reward .points.tone-faulty circle').length >= 2,
      null,
      { timeout: 90_000 },
    );
    expectClean(o);
    await page.context().close();
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

    await page.getByRole('button', { name: 'Run' }).click();
    await waitForStatus(page, 'Finished');
    const next = page.getByRole('button', { name: 'Next group' });
    await next.focus();
    for (let i = 0; i < 8; i++) await page.keyboard.press('Enter');
    expect(await page.locator('.group-nav').innerText()).toContain('group 8 of 8');
    expect(await next.evaluate((b) => b === document.activeElement)).toBe(true);
    expectClean(o);
    await page.context().close();
  });

  it('shows “Pausing…” at once while the step in flight finishes', async () => {
    const o = await open('index.html?backend=cpu&autorun=1'); // seconds per step on the CPU backend
    const { page } = o;
    await showFigure(page);
    await page.waitForFunction(() => document.querySelectorAll('.chart-heldOut .points circle').length >= 2, null, {
      timeout: 90_000,
    });
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Pausing…' }).waitFor({ timeout: 1000 });
    expect(await page.getByRole('button', { name: 'Pausing…' }).getAttribute('aria-disabled')).toBe('true');
    await page.getByRole('button', { name: 'Pausing…' }).click({ force: true }); // a second click changes nothing
    await waitForStatus(page, 'Paused', 30_000);
    expect(await page.getByRole('button', { name: 'Resume' }).count()).toBe(1);
    expectClean(o);
    await page.context().close();
  });

  it('says in a sentence, not an alert, that the reference band is missing when reference-runs.json is broken', async () => {
    const context = await browser.newContext();
    await context.route('**/reference-runs*.json', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"steps": 40, "runs": [' }),
    );
    const page = await context.newPage();
    await page.goto(site.url + 'index.html');
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

  it('has no serious or critical accessibility violation (axe, WCAG 2.1 A/AA) after a short run, in light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
      const page = await context.newPage();
      await page.goto(site.url + 'index.html?steps=2&autorun=1&faulty=1');
      await showFigure(page);
      await waitForStatus(page, 'Finished');
      await page.locator('.taught summary').click(); // the demonstrations' transcripts too
      const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(
        bad.map(
          (v) =>
            `${colorScheme}: ${v.id}: ${v.nodes
              .map((n) => n.target.join(' '))
              .slice(0, 5)
              .join(', ')}`,
        ),
      ).toEqual([]);
      await context.close();
    }
  });
});

describe('the plate page under a strict Content-Security-Policy', () => {
  const CSP =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'";
  let strict: { url: string; server: Server };

  beforeAll(async () => {
    strict = await serve(site.dir, { 'content-security-policy': CSP });
  });
  afterAll(() => new Promise<void>((done) => strict.server.close(() => done())));

  it('loads, trains a short run and logs no error', async () => {
    const context = await browser.newContext();
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

describe('the whole pipeline in the page', () => {
  it('trains from random weights through pre-training and fine-tuning into GRPO, each stage on its own charts', async () => {
    const o = await openFinished('index.html?start=scratch&steps=1&autorun=1', undefined, 240_000);
    const { page } = o;
    const label = (chart: string) => page.locator(`.chart-${chart} svg[role="img"]`).getAttribute('aria-label');
    expect(await label('pretrain-score')).toMatch(/^Pre-training single-digit sums right, step 100 of 100: \d+%$/);
    expect(await label('pretrain-loss')).toMatch(/^Pre-training worksheet loss, step 100 of 100: [\d.]+$/);
    expect(await label('sft-score')).toMatch(/^Fine-tuning held-out success, step 200 of 200: \d+%$/);
    expect(await label('heldOut')).toMatch(/^Held-out success, step 1 of 1: \d+%$/);
    // GRPO starts from the reader's own agent: its step 0 is the fine-tuned agent's score.
    const sftEnd = (await label('sft-score'))!.match(/(\d+)%$/)![1];
    expect(await page.locator('.chart-heldOut .points circle').count()).toBe(2);
    expect(await page.locator('.chart-heldOut [data-testid="readout"]').innerText()).toMatch(
      new RegExp(`^${sftEnd}% → \\d+%$`),
    );
    expect(await page.locator('.stage-step.stage-done').count()).toBe(3);
    expectClean(o);
    await page.context().close();
  }, 300_000);

  it('pauses, resumes and resets in the middle of fine-tuning', async () => {
    const o = await open('index.html?start=pretrained&autorun=1');
    const { page } = o;
    await showFigure(page);
    const stepText = page.getByTestId('status-step');
    await page.waitForFunction(
      () => {
        const m = /^Fine-tuning · step (\d+)/.exec(
          document.querySelector('[data-testid="status-step"]')?.textContent ?? '',
        );
        return m !== null && Number(m[1]) >= 5;
      },
      null,
      { timeout: 90_000, polling: 50 },
    );
    await page.getByRole('button', { name: 'Pause' }).click();
    await waitForStatus(page, 'Paused');
    const at = await stepText.innerText();
    expect(at).toMatch(/^Fine-tuning · step \d+ of 200$/);
    await page.getByRole('button', { name: 'Resume' }).click();
    await waitForStatus(page, 'Training');
    await page.waitForFunction((t) => document.querySelector('[data-testid="status-step"]')?.textContent !== t, at, {
      timeout: 30_000,
    });
    await page.getByRole('button', { name: 'Reset' }).click();
    await waitForStatus(page, 'Ready');
    expect(await page.locator('.chart-sft-score svg[role="img"]').getAttribute('aria-label')).toBe(
      'Fine-tuning held-out success, no data yet',
    );
    expectClean(o);
    await page.context().close();
  });
});

describe('the switches that break the terms', () => {
  it('are set by the URL options, with a note for a bad value', async () => {
    const o = await open('index.html?masking=off&advantage=raw&temperature=1.5&faulty=1&start=pretrained');
    const { page } = o;
    expect(await page.getByRole('switch', { name: /masking/ }).isChecked()).toBe(false);
    expect(await page.getByRole('radio', { name: 'raw reward' }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: 'group-relative' }).isChecked()).toBe(false);
    expect(await page.getByLabel('Temperature').inputValue()).toBe('1.5');
    expect(await page.getByRole('switch', { name: /Faulty calculator/ }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: /the worksheet model/ }).isChecked()).toBe(true);
    await o.page.context().close();
    const bad = await open('index.html?masking=maybe&advantage=none&temperature=2');
    expect(await bad.page.locator('.status-note').allInnerTexts()).toEqual([
      'Ignored masking=maybe: expected on or off.',
      'Ignored advantage=none: expected one of group, raw.',
      'Ignored temperature=2: expected one of 0.5, 1, 1.5.',
    ]);
    expect(await bad.page.getByRole('switch', { name: /masking/ }).isChecked()).toBe(true);
    await bad.page.context().close();
  });

  // Each switch by its effect: the page's curves are the Node workshop's for the same settings
  // (same code, same seed, same WASM arithmetic), and the episodes show what the setting does.
  for (const [query, settings, note, legend] of [
    ['masking=off', { masking: false }, /Observation masking is off/, 'masking off'],
    ['advantage=raw', { advantage: 'raw' }, /The advantage is the raw reward/, 'raw reward'],
    ['temperature=1.5', { temperature: 1.5 }, /Sampling at temperature 1.5/, 'temperature 1.5'],
  ] as const) {
    it(`runs a short run with ${query} that trains as the Node workshop does with it, and says what to expect`, async () => {
      const node = await runWorkshop({ start: 'agent', seed: 1, steps: 2, ...settings });
      const o = await openFinished(`index.html?steps=2&autorun=1&${query}`);
      const { page } = o;
      expect(await chartLabel(page, 'heldOut')).toBe(`Held-out success, step 2 of 2: ${pct(node.heldOut[2]!)}`);
      expect(await chartLabel(page, 'reward')).toBe(`Mean reward, step 2 of 2: ${pct(node.meanReward[1]!)}`);
      const shown = node.records[2]!.episodes.slice(0, 8);
      expect(await page.locator('.episode-table tbody tr').count()).toBe(8);
      const rows = await page.locator('.episode-table tbody tr').evaluateAll((trs) =>
        trs.map((tr) => ({
          text: tr.querySelector('.transcript')!.textContent,
          trainedEnv: tr.querySelectorAll('.by-e.trained').length,
          cells: [...tr.querySelectorAll('td.num')].map((td) => td.textContent),
        })),
      );
      expect(rows.map((r) => r.text)).toEqual(shown.map((e) => e.text));
      if ('masking' in settings) expect(rows.some((r) => r.trainedEnv > 0)).toBe(true);
      else expect(rows.every((r) => r.trainedEnv === 0)).toBe(true);
      if ('advantage' in settings)
        for (const r of rows) expect(Number(r.cells[1]!.replace('−', '-'))).toBe(Number(r.cells[0]));
      expect(await page.locator('.chart-copy svg[role="img"]').getAttribute('aria-label')).toMatch(
        /^Answers that copy the tool, step 2 of 2: \d+%$/,
      );
      expect(await page.locator('.chart-malformed .points circle').count()).toBe(2);
      expect(await page.locator('.figure-notes').innerText()).toMatch(note);
      expect(await page.locator('.chart-legend').innerText()).toContain(`this run: reliable, ${legend}`);
      expectClean(o);
      await page.context().close();
    });
  }

  it('lets the reader take the run away as JSON and CSV, with a link that sets it up again', async () => {
    const o = await openFinished('index.html?steps=2&autorun=1&masking=off&seed=3');
    const { page } = o;
    const save = async (name: RegExp) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
      return { file: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') };
    };
    const json = await save(/the run as JSON/);
    expect(json.file).toBe('plate-XXVI.3-run-agent-reliable-masking-off-seed-3.json');
    const run = JSON.parse(json.text);
    expect(run).toMatchObject({
      format: 'multi-turn-rl-run/1',
      plate: 'XXVI.3',
      config: { masking: false, seed: 3, steps: 2, advantage: 'group' },
    });
    expect(run.grpo.map((r: { step: number }) => r.step)).toEqual([0, 1, 2]);
    expect(run.episodes.episodes).toHaveLength(64);
    const csv = await save(/the curves as CSV/);
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe(
      'stage,step,loss,held_out,single_digit_sums,mean_reward,copy_rate,malformed_rate,lies,calls,true_success,rewarded_by_bug,sampling_ms,update_ms,evaluation_ms',
    );
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 2).join(' '))).toEqual(['grpo 0', 'grpo 1', 'grpo 2']);
    const href = await page.getByRole('link', { name: /sets this configuration up again/ }).getAttribute('href');
    expect(Object.fromEntries(new URL(href!).searchParams)).toMatchObject({
      masking: 'off',
      seed: '3',
      steps: '2',
      advantage: 'group',
      start: 'agent',
      autorun: '1',
    });
    expectClean(o);
    await page.context().close();
  });
});

describe('the grader, true success and where a step’s time goes', () => {
  const grader = (page: Page) => page.getByRole('combobox', { name: /grader/i });
  /** The reward chart's last value and its true success's, as the chart's label and description say them. */
  async function rewardAndTruth(page: Page): Promise<{ reward: number; truth: number }> {
    const svg = page.locator('.chart-reward svg[role="img"]');
    const reward = /: (\d+)%$/.exec((await svg.getAttribute('aria-label'))!)![1]!;
    const description = await page.locator(`[id="${await svg.getAttribute('aria-describedby')}"]`).textContent();
    return { reward: Number(reward), truth: Number(/^true success, step \d+: (\d+)%$/.exec(description!)![1]) };
  }

  it('offers the grader beside the calculator, set by ?grader=, with a note for a bad value', async () => {
    const o = await open('index.html?grader=crash-pass');
    const { page } = o;
    expect(await grader(page).inputValue()).toBe('crash-pass');
    expect(await grader(page).evaluate((s) => s.closest('.grpo-settings') !== null)).toBe(true);
    expect(await page.locator('.grader .hint').innerText()).toBe(
      '(training episodes only; held-out success is always graded exactly)',
    );
    expect(await grader(page).locator('option').allInnerTexts()).toEqual([
      'exact answer (the plate’s)',
      'a crash counts as a pass (a bug)',
      'trusts the calculator (a bug)',
    ]);
    expectClean(o);
    await page.context().close();
    const bad = await open('index.html?grader=lenient');
    expect(await bad.page.locator('.status-note').allInnerTexts()).toEqual([
      'Ignored grader=lenient: expected one of exact, crash-pass, trusts-tool.',
    ]);
    expect(await grader(bad.page).inputValue()).toBe('exact');
    await bad.page.context().close();
  });

  it('runs with a crash counted as a pass: the reward parts from true success, the bug’s rewards are marked, the note says why; the exact grader brings them together again', async () => {
    const o = await openFinished('index.html?steps=3&autorun=1&grader=crash-pass');
    const { page } = o;
    expect(await page.locator('.chart-legend').innerText()).toContain('this run: reliable, a crash counts as a pass');
    expect(await page.locator('.chart-reward .companion rect').count()).toBe(3);
    const bug = await rewardAndTruth(page);
    expect(bug.reward).toBeGreaterThan(bug.truth); // the malformed episodes are paid
    expect(await page.getByTestId('readout-companion').innerText()).toMatch(/^true success: \d+% → \d+%$/);
    expect(await page.locator('.graded-by').innerText()).toMatch(
      /^Graded by a bug: a crash counts as a pass .* (\d+) of the step’s 64 episodes were rewarded by the bug\. Held-out success is graded exactly\.$/,
    );
    const marked = Number(/ (\d+) of the step’s 64/.exec(await page.locator('.graded-by').innerText())![1]);
    expect(marked).toBeGreaterThan(0);
    expect(await page.locator('.figure-notes').innerText()).toMatch(
      /The grader counts a crash as a pass: .*In our reference runs \(5 seeds, reliable calculator\) the reward over the last five steps is 100%, true success 0%/,
    );
    // The viewer marks each episode only the bug paid for, in whichever group it is.
    let seen = 0;
    for (let g = 0; g < 8; g++) {
      seen += await page.locator('.episode-table .bug-note').count();
      if (g < 7) await page.getByRole('button', { name: 'Next group' }).click();
    }
    expect(seen).toBe(marked);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      expect(
        result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${colorScheme}: ${v.id}`),
      ).toEqual([]);
    }

    await grader(page).selectOption('exact');
    await page.waitForFunction(
      () =>
        document.querySelector('.chart-legend')?.textContent?.includes('this run: reliable') &&
        !document.querySelector('.chart-legend')?.textContent?.includes('this run: reliable, a crash'),
      null,
      { timeout: 30_000 },
    );
    await waitForStatus(page, 'Finished');
    expect(await page.locator('.chart-legend').innerText()).toContain(
      'earlier run: reliable, a crash counts as a pass',
    );
    const exact = await rewardAndTruth(page);
    expect(exact.truth).toBe(exact.reward);
    expect(await page.locator('.graded-by').innerText()).toMatch(/^Graded by the exact answer/);
    expect(await page.locator('.episode-table .bug-note').count()).toBe(0);
    expect(await page.locator('.figure-notes').count()).toBe(0);
    expectClean(o);
    await page.context().close();
  });

  it('says where each step’s time goes under the curves, for the run on the charts', async () => {
    const o = await openFinished('index.html?steps=3&autorun=1&grader=trusts-tool&faulty=1');
    const { page } = o;
    const split = page.locator('.time-split');
    expect(await split.locator('.time-bar').count()).toBe(3);
    expect(await split.locator('svg[role="img"]').getAttribute('aria-label')).toMatch(
      /^Time per GRPO step, step 3: sampling \d+ ms, policy update \d+ ms, held-out evaluation \d+ ms$/,
    );
    expect(await page.getByTestId('time-split-readout').innerText()).toMatch(
      /^sampling \d+ ms \(\d+%\) · policy update \d+ ms \(\d+%\) · held-out evaluation \d+ ms \(\d+%\)$/,
    );
    expect(await split.locator('.time-sentence').innerText()).toMatch(
      /sampling episodes becomes the dominant cost of training/,
    );
    expect(await split.locator('.time-note').innerText()).toContain('split between them by rows');
    // The export carries each step's split and the grader that paid it.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /the run as JSON/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('plate-XXVI.3-run-agent-faulty-trusts-tool-seed-1.json');
    const run = JSON.parse(readFileSync(await download.path(), 'utf8'));
    expect(run.config.grader).toBe('trusts-tool');
    expect(run.grpo[3]).toMatchObject({
      trueSuccess: expect.any(Number),
      rewardedByBug: expect.any(Number),
      timeSplit: { sampling: expect.any(Number), update: expect.any(Number), evaluation: expect.any(Number) },
    });
    // Reset clears the run from the charts, and its split with it.
    await page.getByRole('button', { name: 'Reset' }).click();
    await waitForStatus(page, 'Ready');
    expect(await split.locator('.time-bar').count()).toBe(0);
    expect(await split.locator('svg[role="img"]').getAttribute('aria-label')).toBe('Time per GRPO step, no data yet');
    expectClean(o);
    await page.context().close();
  });
});
