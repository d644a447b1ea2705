// The plate in a second engine: Debian's Firefox ESR through puppeteer-core over WebDriver BiDi,
// beside Chromium. The same 40-step run on the same backend (WASM, forced so that neither
// engine's GPU decides the arithmetic) must end with the same readouts, with no console error
// in the page or its worker and nothing fetched from elsewhere.
import type { Server } from 'node:http';
import type { Browser as ChromiumBrowser } from 'playwright-core';
import type { Browser as FirefoxBrowser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, watch } from '../../scripts/lib/browser/chromium';
import { launchFirefox, watchFirefox } from '../../scripts/lib/browser/firefox';
import { serve } from '../../scripts/lib/browser/site';

let site: { url: string; server: Server; dir: string };
let chromium: ChromiumBrowser;
let firefox: FirefoxBrowser;

beforeAll(async () => {
  const dir = inject('pageDir'); // built once for every browser file (test/e2e/setup.ts)
  site = { ...(await serve(dir)), dir };
  [chromium, firefox] = await Promise.all([launch(), launchFirefox()]);
});

afterAll(async () => {
  await Promise.all([chromium?.close(), firefox?.close()]);
  if (site) await new Promise((done) => site.server.close(done));
});

const PATH = 'index.html?autorun=1&backend=wasm';

/** What the figure says at the end of a run: every readout and the two charts' last points. */
function endState(): { readouts: string[]; charts: (string | null)[] } {
  const text = (sel: string) => [...document.querySelectorAll(sel)].map((e) => e.textContent ?? '');
  return {
    readouts: text('[data-testid="readout"]'),
    charts: [...document.querySelectorAll('.chart svg[role="img"]')].map((e) => e.getAttribute('aria-label')),
  };
}
const finished = () => document.querySelector('.status-word')?.textContent === 'Finished';

describe('a second browser engine', () => {
  it('Firefox ends a 40-step run with the readouts Chromium ends it with, and logs no error', async () => {
    const origin = new URL(site.url).origin;

    const context = await chromium.newContext({ viewport: { width: 1280, height: 900 } });
    const cPage = await context.newPage();
    const cWatched = watch(context, cPage, origin);
    await cPage.goto(site.url + PATH);
    await cPage.locator('.plate-figure').scrollIntoViewIfNeeded();
    await cPage.waitForFunction(finished, undefined, { timeout: 120_000, polling: 100 });
    const inChromium = await cPage.evaluate(endState);
    await context.close();

    const fPage = await firefox.newPage();
    const fWatched = watchFirefox(fPage, origin);
    const t0 = performance.now();
    await fPage.goto(site.url + PATH);
    await fPage.evaluate(() => document.querySelector('.plate-figure')!.scrollIntoView());
    await fPage.waitForFunction(finished, { timeout: 120_000, polling: 100 });
    console.log(`Firefox: 40 GRPO steps from page load in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const inFirefox = await fPage.evaluate(endState);
    await fPage.close();

    expect(inFirefox.readouts).toEqual(inChromium.readouts);
    expect(inFirefox.charts).toEqual(inChromium.charts);
    // The plate's default run: 80% held-out at the start, as the shipped checkpoint's card says.
    expect(inFirefox.readouts[0]).toMatch(/^80% → \d+%$/);
    expect(inFirefox.charts[0]).toMatch(/^Held-out success, step 40 of 40: \d+%$/);
    expect({ errors: fWatched.errors, foreign: fWatched.foreign }).toEqual({ errors: [], foreign: [] });
    expect({ errors: cWatched.errors, foreign: cWatched.foreign }).toEqual({ errors: [], foreign: [] });
  }, 240_000);
});
