// The plate page's browser tests share one Chromium per file, the built page (test/e2e/setup.ts)
// served by the file, and these helpers. Every page is watched for console errors and for requests
// that leave the page's origin; screenshots go to test-results/.
import { mkdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { launch, pageReuser, watch, type Watched } from '../browser/chromium';
import { serve } from '../browser/site';

export const RESULTS = resolve(import.meta.dirname, '../../test-results');

interface Opened extends Watched {
  page: Page;
}

export interface PlateBrowser {
  browser: () => Browser;
  /** The built page's server: its URL (ending in /) and folder. */
  site: () => { url: string; server: Server; dir: string };
  /** The file's page (pageReuser) at `viewport` (a laptop's screen unless said), watched, on `path` of the page. */
  open: (path: string, viewport?: { width: number; height: number }) => Promise<Opened>;
  /** Opens `path` (an autorun query), brings the figure into view and waits for the run to finish. */
  openFinished: (path: string, viewport?: { width: number; height: number }, timeout?: number) => Promise<Opened>;
}

/** Registers the file's browser and server (beforeAll/afterAll) and returns what opens pages. */
export function plateBrowser(): PlateBrowser {
  let browser: Browser;
  let site: { url: string; server: Server; dir: string };
  let reuse: ReturnType<typeof pageReuser>;

  beforeAll(async () => {
    const dir = inject('pageDir'); // built once for every browser file (test/e2e/setup.ts)
    site = { ...(await serve(dir)), dir };
    browser = await launch();
    reuse = pageReuser(browser);
    mkdirSync(RESULTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    if (site) await new Promise((done) => site.server.close(done));
  });

  async function open(path: string, viewport = { width: 1280, height: 900 }): Promise<Opened> {
    const page = await reuse(viewport);
    const watched = watch(page.context(), page, new URL(site.url).origin);
    await page.goto(site.url + path);
    // The standalone page loads the figure's code after the text (src/ui/Page.tsx): wait for it.
    if (path.startsWith('index.html')) await page.locator('.live-figure').waitFor({ state: 'attached' });
    return { page, ...watched };
  }

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

  return { browser: () => browser, site: () => site, open, openFinished };
}

export const statusWord = (page: Page) => page.locator('.status-word').innerText();
export const waitForStatus = (page: Page, word: string, timeout = 90_000) =>
  page.waitForFunction((w) => document.querySelector('.status-word')?.textContent === w, word, {
    timeout,
    polling: 100,
  });

/**
 * Brings `locator` to the middle of the screen as a reader would, and resolves once the parts on
 * the screen are laid out and it holds its place there across a frame; returns how far it moved
 * after it first showed. A far part is laid out a frame or more after it comes near
 * (content-visibility: auto, src/styles/figure.css) and moves what is below it: a click aimed
 * before then (Playwright waits for two still frames only) lands on whatever moved under it.
 */
export function inPlace(locator: Locator): Promise<number> {
  return locator.evaluate(async (e) => {
    const parts = [...document.querySelectorAll('body *')].filter(
      (p) => getComputedStyle(p).contentVisibility === 'auto',
    );
    e.scrollIntoView({ block: 'center' });
    const shown = e.getBoundingClientRect().top;
    let moved: number | null = null;
    for (let last = NaN; ;) {
      await new Promise((frame) => requestAnimationFrame(frame));
      const top = e.getBoundingClientRect().top;
      const laidOut = parts.every((p) => {
        const r = p.getBoundingClientRect();
        return (
          r.bottom <= 0 || r.top >= innerHeight || p.firstElementChild?.checkVisibility({ contentVisibilityAuto: true })
        );
      });
      if (laidOut && top === last) {
        if (moved !== null) return moved;
        moved = Math.abs(top - shown);
        e.scrollIntoView({ block: 'center' }); // where the parts laid out have moved it
      }
      last = laidOut ? top : NaN;
    }
  });
}

/**
 * A far part's text as a reader sees it, brought to the screen (inPlace): until then its layout
 * is skipped (content-visibility: auto, src/styles/figure.css) and innerText reads ''.
 */
export async function shownText(locator: Locator): Promise<string> {
  await inPlace(locator);
  return locator.innerText();
}

/** Opens the export (one click) and clicks its link named `name` once in place; the file it saves, by name and text. */
export async function download(page: Page, name: RegExp): Promise<{ file: string; text: string }> {
  await openPart(page, 'export');
  const link = page.getByRole('link', { name });
  await inPlace(link);
  const [saved] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { file: saved.suggestedFilename(), text: readFileSync(await saved.path(), 'utf8') };
}

/** Autorun waits while the figure is out of view (auto-pause): bring it into view. */
export const showFigure = (page: Page) => page.locator('.plate-figure').scrollIntoViewIfNeeded();

export const chartLabel = (page: Page, chart: 'heldOut' | 'reward') =>
  page.locator(`.chart-${chart} svg[role="img"]`).getAttribute('aria-label');

export function expectClean(o: Watched) {
  expect(o.errors, 'console errors').toEqual([]);
  expect(o.foreign, 'requests to another origin').toEqual([]);
}

/**
 * No serious or critical accessibility violation (axe, WCAG 2.1 A/AA) on the page as it is now, in
 * the light colour scheme and then the dark one (switched in place: the page is left dark).
 */
export async function expectAccessible(page: Page) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
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
  }
}

/**
 * Opens the figure's part `id` (parts/parts.ts) as a reader would: one click on its summary line,
 * once it is in place; resolves when its body is shown, its code come. An open part stays open.
 */
export async function openPart(page: Page, id: string): Promise<Locator> {
  const part = page.locator(`details[data-part="${id}"]`).first();
  if (!(await part.evaluate((e: HTMLDetailsElement) => e.open))) {
    const summary = part.locator(':scope > summary');
    await inPlace(summary);
    await summary.click();
  }
  await part.locator(':scope > .part-body').waitFor({ state: 'visible' });
  // A part whose code comes when it opens (step/step-load.ts) shows a line until it has come.
  await part.locator('.part-loading').waitFor({ state: 'detached' });
  return part;
}
