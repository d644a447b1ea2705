// The plate in a second engine: Debian's Firefox ESR through puppeteer-core over WebDriver BiDi,
// beside Chromium, one Firefox for the file. The same run on the same backend (WASM, forced so
// that neither engine's GPU decides the arithmetic) must end with the same readouts, with no
// console error in the page or its worker and nothing fetched from elsewhere; then Run every
// length (the held-fixed agent on every length, the three-call world last) against the Node
// workshop, and Step, the push and Ask in Firefox.
//
// Runs are short (5, 2 and 3 GRPO steps): on some machines Firefox runs a page's plain float
// arithmetic ~50× slower than Chromium (~10 s a GRPO step, `npm run bench -- targets` prints each
// engine's float loop), and the file must end within its timeouts there too. Every wait is sized
// for such an engine; the 40-step run that lands on the plate is Chromium's (page-runs.e2e).
import type { Server } from 'node:http';
import type { Browser as ChromiumBrowser } from 'playwright-core';
import type { Browser as FirefoxBrowser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, watch } from '../browser/chromium';
import { launchFirefox, watchFirefox } from '../browser/firefox';
import { serve } from '../browser/site';
import { DEFAULT_SEED } from '../../src/config';
import { runWorkshop } from '../../src/node/run-workshop';
import { pct } from '../../src/ui/format';
import { CLAIM_AGENT, CLAIM_LENGTHS } from '../../src/ui/figure/claims/longer-episode';
import { useWasm } from '../tf';

let site: { url: string; server: Server; dir: string };
let chromium: ChromiumBrowser;
let firefox: FirefoxBrowser;

beforeAll(useWasm);
beforeAll(async () => {
  const dir = inject('pageDir'); // built once for every browser file (test/e2e/setup.ts)
  site = { ...(await serve(dir)), dir };
  [chromium, firefox] = await Promise.all([launch(), launchFirefox()]);
});

afterAll(async () => {
  await Promise.all([chromium?.close(), firefox?.close()]);
  if (site) await new Promise((done) => site.server.close(done));
});

/** GRPO steps of the cross-engine run: enough for the readouts to move, few enough for a slow engine. */
const STEPS = 5;
const PATH = `index.html?autorun=1&backend=wasm&steps=${STEPS}`;
/** A wait for a run's end on an engine ~50× slower than Chromium: 5 steps at ~10 s, and loading. */
const RUN_WAIT = 150_000;

/** What the figure says at the end of a run: every readout and the two charts' last points. */
function endState(): { readouts: string[]; charts: (string | null)[] } {
  const text = (sel: string) => [...document.querySelectorAll(sel)].map((e) => e.textContent ?? '');
  return {
    readouts: text('[data-testid="readout"]'),
    charts: [...document.querySelectorAll('.chart svg[role="img"]')].map((e) => e.getAttribute('aria-label')),
  };
}
/** The figure's code arrives after the text (src/ui/Page.tsx): wait for it, then bring it into view (a run out of view waits). */
async function showFigureIn(page: Page) {
  await page.waitForSelector('.live-figure');
  await page.evaluate(() => document.querySelector('.plate-figure')!.scrollIntoView());
}
const statusIs = (w: string) => document.querySelector('.status-word')?.textContent === w;

describe('a second browser engine', () => {
  it(`Firefox ends a ${STEPS}-step run with the readouts Chromium ends it with, and logs no error`, async () => {
    const origin = new URL(site.url).origin;

    const context = await chromium.newContext({ viewport: { width: 1280, height: 900 } });
    const cPage = await context.newPage();
    const cWatched = watch(context, cPage, origin);
    await cPage.goto(site.url + PATH);
    await cPage.locator('.plate-figure').scrollIntoViewIfNeeded();
    await cPage.waitForFunction(statusIs, 'Finished', { timeout: RUN_WAIT, polling: 100 });
    const inChromium = await cPage.evaluate(endState);
    await context.close();

    const fPage = await firefox.newPage();
    const fWatched = watchFirefox(fPage, origin);
    const t0 = performance.now();
    await fPage.goto(site.url + PATH);
    await showFigureIn(fPage);
    await fPage.waitForFunction(statusIs, { timeout: RUN_WAIT, polling: 100 }, 'Finished');
    console.log(`Firefox: ${STEPS} GRPO steps from page load in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const inFirefox = await fPage.evaluate(endState);
    await fPage.close();

    expect(inFirefox.readouts).toEqual(inChromium.readouts);
    expect(inFirefox.charts).toEqual(inChromium.charts);
    // The plate's default run: 80% held-out at the start, as the shipped checkpoint's card says.
    expect(inFirefox.readouts[0]).toMatch(/^80% → \d+%$/);
    expect(inFirefox.charts[0]).toMatch(new RegExp(`^Held-out success, step ${STEPS} of ${STEPS}: \\d+%$`));
    expect({ errors: fWatched.errors, foreign: fWatched.foreign }).toEqual({ errors: [], foreign: [] });
    expect({ errors: cWatched.errors, foreign: cWatched.foreign }).toEqual({ errors: [], foreign: [] });
  }, 200_000);
});

describe('Run every length in Firefox', () => {
  it(
    'trains the held-fixed agent on every length to the Node workshop’s figures, the last (two calls) on the charts, and logs no error',
    async () => {
      const steps = 2;
      const node = await Promise.all(
        CLAIM_LENGTHS.map((episode) => runWorkshop({ seed: DEFAULT_SEED, steps, episode, agent: CLAIM_AGENT })),
      );
      const page = await firefox.newPage();
      const watched = watchFirefox(page, new URL(site.url).origin);
      await page.goto(site.url + `index.html?steps=${steps}&backend=wasm`);
      await showFigureIn(page);
      await page.waitForFunction(statusIs, { timeout: RUN_WAIT, polling: 100 }, 'Ready');
      await openPartIn(page, 'run-yourself');
      await page.$eval('button.run-lengths', (b) => b.scrollIntoView({ block: 'center' }));
      await page.click('button.run-lengths');
      await openPartIn(page, 'export'); // open before the run's data: it stays open from one length to the next
      await page.waitForSelector('.run-export-lengths', { timeout: 2 * RUN_WAIT });
      const yours = await page.$$eval('tr[data-claim="reward"] .claim-yours', (es) => es.map((e) => e.textContent));
      const { charts } = await page.evaluate(endState);
      const legend = await text(page, '.chart-legend');
      await page.close();

      const mean = (xs: readonly number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
      expect(yours).toEqual(node.map((n) => ` you ${pct(mean(n.meanReward))}`));
      const last = node.at(-1)!;
      expect(charts.slice(0, 2)).toEqual([
        `Held-out success, step ${steps} of ${steps}: ${pct(last.heldOut[steps]!)}`,
        `Mean reward, step ${steps} of ${steps}: ${pct(last.meanReward[steps - 1]!)}`,
      ]);
      expect(legend).toContain('this run: three calls, reliable');
      expect({ errors: watched.errors, foreign: watched.foreign }).toEqual({ errors: [], foreign: [] });
    },
    2 * RUN_WAIT + 60_000,
  );
});

const text = (page: Page, sel: string) => page.$eval(sel, (e) => e.textContent ?? '');

/** Opens the figure's part `id` as a reader would, a click on its summary line, once it is there. */
async function openPartIn(page: Page, id: string, timeout = 30_000) {
  const part = `details[data-part="${id}"]`;
  await page.waitForSelector(part, { timeout });
  await page.$eval(part, (d) => (d as HTMLDetailsElement).open || d.querySelector('summary')!.click());
  await page.waitForSelector(`${part} > .part-body`, { timeout });
  await page.waitForSelector(`${part} .part-loading`, { hidden: true, timeout });
}
const until = (page: Page, f: (arg: string) => boolean, arg: string) =>
  page.waitForFunction(f, { timeout: 90_000, polling: 50 }, arg);
const pausedAfter = (a: string) =>
  document.querySelector('.status-word')?.textContent === 'Paused' &&
  document.querySelector('.status-after')?.textContent === a;

describe('Step, the push and Ask in Firefox', () => {
  it('steps one GRPO step at a time, names each character’s push, and answers a sum or names what is wrong', async () => {
    const page = await firefox.newPage();
    const watched = watchFirefox(page, new URL(site.url).origin);
    await page.goto(site.url + 'index.html?steps=3&backend=wasm');
    await showFigureIn(page);
    await until(page, statusIs, 'Ready');

    await page.click('button.step');
    await until(page, pausedAfter, 'after GRPO step 1');
    await page.click('button.step');
    await until(page, pausedAfter, 'after GRPO step 2');
    expect(await text(page, '[data-testid="status-step"]')).toBe('GRPO · step 2 of 3');

    await page.waitForSelector('.episode-table [role="listitem"]'); // the part's code comes as Step opens it
    const names = await page.$$eval('.episode-table [role="listitem"]', (items) =>
      items.map((i) => i.getAttribute('aria-label') ?? ''),
    );
    expect(names.length).toBeGreaterThan(8 * 10);
    expect(names.filter((n) => / → /.test(n)).length).toBeGreaterThan(8 * 8);
    expect(names.some((n) => / not trained on$/.test(n))).toBe(true);
    expect(await text(page, '.group-arithmetic h4')).toMatch(/^From rewards to advantages: \d+\+\d+$/);

    const input = 'input[aria-describedby]';
    await page.type(input, '57+38');
    await page.click('.ask button[type="submit"]');
    await until(
      page,
      (s) => document.querySelector('.ask-answer')?.getAttribute('aria-label') === s,
      'The agent’s answer to 57+38',
    );
    expect(await text(page, '.ask-answer')).toMatch(/Played by this run’s policy after GRPO step 2/);
    await page.$eval(input, (e) => ((e as HTMLInputElement).value = ''));
    await page.type(input, '5+');
    await page.click('.ask button[type="submit"]');
    await until(
      page,
      (s) => document.querySelector('[role="alert"]')?.textContent === s,
      '“5+” needs a second number after the +, such as 57+38.',
    );
    expect(await page.$eval(input, (e) => e.getAttribute('aria-invalid'))).toBe('true');

    await page.click('button.run'); // Resume
    await until(page, statusIs, 'Finished');
    expect({ errors: watched.errors, foreign: watched.foreign }).toEqual({ errors: [], foreign: [] });
    await page.close();
  }, 180_000);
});
