// Step, the push and Ask in a second engine: Debian's Firefox ESR through puppeteer-core over
// WebDriver BiDi, on the built page (WASM forced, as in the other Firefox test).
import type { Server } from 'node:http';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchFirefox, watchFirefox } from '../../scripts/lib/browser/firefox';
import { serve } from '../../scripts/lib/browser/site';

let site: { url: string; server: Server; dir: string };
let firefox: Browser;

beforeAll(async () => {
  const dir = inject('pageDir'); // built once for every browser file (test/e2e/setup.ts)
  site = { ...(await serve(dir)), dir };
  firefox = await launchFirefox();
});

afterAll(async () => {
  await firefox?.close();
  if (site) await new Promise((done) => site.server.close(done));
});

const text = (page: Page, sel: string) => page.$eval(sel, (e) => e.textContent ?? '');
const until = (page: Page, f: (arg: string) => boolean, arg: string) =>
  page.waitForFunction(f, { timeout: 90_000, polling: 50 }, arg);
const statusIs = (w: string) => document.querySelector('.status-word')?.textContent === w;
const pausedAfter = (a: string) =>
  document.querySelector('.status-word')?.textContent === 'Paused' &&
  document.querySelector('.status-after')?.textContent === a;

describe('Step, the push and Ask in Firefox', () => {
  it('steps one GRPO step at a time, names each character’s push, and answers a sum or names what is wrong', async () => {
    const page = await firefox.newPage();
    const watched = watchFirefox(page, new URL(site.url).origin);
    await page.goto(site.url + 'index.html?steps=3&backend=wasm');
    await page.evaluate(() => document.querySelector('.plate-figure')!.scrollIntoView());
    await until(page, statusIs, 'Ready');

    await page.click('button.step');
    await until(page, pausedAfter, 'after GRPO step 1');
    await page.click('button.step');
    await until(page, pausedAfter, 'after GRPO step 2');
    expect(await text(page, '[data-testid="status-step"]')).toBe('GRPO · step 2 of 3');

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
