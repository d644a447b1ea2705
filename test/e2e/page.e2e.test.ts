// The plate page in real headless Chromium, as a reader meets it: the text, a short live run on
// both charts, the faulty switch drawn over the reliable run, pausing out of sight, URL notes,
// embedding, the curves first, print, a phone-sized screen.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PLATE } from '../../src/plate/text';
import {
  chartLabel,
  expectClean,
  inPlace,
  openPart,
  plateBrowser,
  RESULTS,
  shownText,
  statusWord,
  waitForStatus,
} from './page-helpers';

const { browser, site, open, openFinished } = plateBrowser();

/** The figure's controls (and the lines that only say what to press) the printed page would show: none, when printed. */
const printedControls = (page: Page) =>
  page
    .locator(
      ':is(.figure-body, .figure-beside) :is(button, select, input, textarea, summary:not(.part > summary), label:has(input, select, textarea), .first-path)',
    )
    .evaluateAll((es) =>
      es
        .filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden')
        .map((e) => e.outerHTML.slice(0, 80)),
    );

/**
 * Scrolls to the page's foot and stays there until the page's height holds: the parts laid out
 * only as they near (content-visibility) change the height as the reader passes them.
 */
const toFoot = (page: Page) =>
  page.evaluate(async () => {
    const frame = () => new Promise((done) => requestAnimationFrame(done));
    for (let last = -1; document.documentElement.scrollHeight !== last;) {
      last = document.documentElement.scrollHeight;
      scrollTo(0, last);
      await frame();
      await frame();
    }
  });

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
    expect(await chartLabel(page, 'heldOut')).toBe(
      'Held-out success, no run on it yet; drawn: the reference runs’ band (precomputed), the plate’s numbers',
    );
    await page.locator('.term').first().focus();
    expect(await page.locator('.term-tip').innerText()).toContain(PLATE.terms.items[0]!.definition);
    expectClean(o);
  });

  it('runs ?steps=3&autorun=1 on both charts, then, on Run, a faulty run over the dimmed reliable one', async () => {
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

    // The episode viewer, one click away: the model's and the environment's characters look different.
    await openPart(page, 'step');
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
    await inPlace(page.getByRole('button', { name: 'Next group' }));
    await page.getByRole('button', { name: 'Next group' }).click();
    expect(await page.locator('.group-nav').innerText()).toContain('group 2 of 8');

    // After a finished run the switch waits for Run, and says so beside it; Run trains with it.
    await page.getByRole('switch', { name: /Faulty calculator/ }).check();
    await page.locator('.settings-wait').waitFor();
    expect(await page.locator('.chart-reward .points.tone-faulty circle').count()).toBe(0);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
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
    expect(await page.locator('.chart-legend').first().innerText()).toContain('earlier run: reliable');
    await page.screenshot({ path: join(RESULTS, 'page-1280.png'), fullPage: true });
    expectClean(o);
  });

  it('pauses when the figure and its parts beside the text leave the screen or the tab hides, and resumes when they return', async () => {
    // A short screen: at the page's foot only the plate's last sections show, none of the figure.
    const o = await open('index.html?autorun=1', { width: 1280, height: 500 });
    const { page } = o;
    const figure = page.locator('.plate-figure');
    await figure.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelectorAll('.chart-heldOut .points circle').length >= 2, null, {
      timeout: 90_000,
    });
    await toFoot(page);
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
    await toFoot(page);
    await figure.scrollIntoViewIfNeeded();
    // The view's hold lets go; the reader's stays, and is the only one named.
    await page.waitForFunction(
      () => [...document.querySelectorAll('.status-why')].map((e) => e.getAttribute('data-holder')).join() === 'reader',
      null,
      { timeout: 60_000 },
    );
    expect(await statusWord(page)).toBe('Paused');
    expect(await page.getByRole('button', { name: 'Resume' }).count()).toBe(1);
    expectClean(o);
  });

  it('trains on in view while the viewport grows to the whole page and back, and shrinks and grows (a screenshot, a zoom, a rotation)', async () => {
    // One delivery of the figure's observer can hold "out" and then "in" (the reader saw the run
    // stall at step 0 saying it was out of view). Each round: a full-page screenshot, the viewport
    // shrunk past the figure and grown back, then the run must go on in view: a step past the
    // one it was at, training again with no one holding it (the observer's "in" has come), or
    // finished. Waited for, not read at once: right after the resize the observer may not have
    // reported yet, and a run held out of view for a moment says so.
    const o = await open('index.html?steps=40&autorun=1');
    const { page } = o;
    await waitForStatus(page, 'Training');
    const stepNow = () =>
      page
        .getByTestId('status-step')
        .innerText()
        .then((t) => Number(/step (\d+)/.exec(t)?.[1] ?? -1));
    for (let round = 0; round < 8 && (await statusWord(page)) !== 'Finished'; round++) {
      await page.screenshot({ path: join(RESULTS, 'page-full-screenshot.png'), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 300 });
      await page.setViewportSize({ width: 1280, height: 900 });
      const at = await stepNow();
      await page.waitForFunction(
        (k) => {
          const word = document.querySelector('.status-word')?.textContent;
          const text = document.querySelector('[data-testid="status-step"]')?.textContent ?? '';
          const step = Number(/step (\d+)/.exec(text)?.[1] ?? -1);
          const held = document.querySelector('.status-why') !== null;
          return word === 'Finished' || (word === 'Training' && step > k && !held);
        },
        at,
        { timeout: 60_000, polling: 50 },
      );
    }
    expect(await page.locator('.status-why').count()).toBe(0);
    expectClean(o);
  });

  it('ignores bad URL values with a visible note, and links cross-references given a pattern', async () => {
    const o = await open('index.html?seed=abc&steps=99&start=middle&xref=/volume/plates/{ref}');
    const notes = await o.page.locator('.status-note').allInnerTexts();
    expect(notes).toEqual([
      'Ignored seed=abc: expected a whole number from 0 to 2147483647.',
      'Ignored steps=99: expected a whole number from 1 to 40.',
      'Ignored start=middle: expected one of agent, pretrained, scratch.',
    ]);
    await openPart(o.page, 'start');
    expect(await o.page.getByRole('radio', { name: /the fine-tuned agent/ }).isChecked()).toBe(true);
    expect(await o.page.locator('a.xref', { hasText: 'plate XIX.5' }).getAttribute('href')).toBe(
      '/volume/plates/XIX.5',
    );
    expectClean(o);
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
  });

  it('meets the curves first: Run, Step, Reset and the faulty calculator, the charts within 250 px of the caption, the other switches one click away under their heading below them', async () => {
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
      const part = await openPart(page, 'terms');
      expect(await part.locator('summary h2').innerText()).toMatch(/^Break the plate’s terms$/i);
      const switches = part.locator('.term-switches');
      for (const name of [/Observation masking/, /raw reward/, /Grader/, /Temperature/])
        expect(await switches.getByLabel(name).count()).toBe(1);
      expect(await top('.term-switches')).toBeGreaterThan(await bottom('.chart-reward'));
      expectClean(o);
    }
  });

  it('prints the plate’s text, the charts with their readouts under them, the episodes opened, the arithmetic and the numbers, a folded part’s summary line, without controls or status', async () => {
    const o = await openFinished('index.html?steps=3&autorun=1');
    const { page } = o;
    await openPart(page, 'step');
    await openPart(page, 'behaviour');
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
    expect(await printedControls(page)).toEqual([]);
    // A folded part prints its summary line: what it holds and the run's headline figure.
    const folded = page.locator('details[data-part="practitioner"]');
    expect(await folded.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    expect(await folded.locator('summary').innerText()).toMatch(/frac_reward_zero_std \d+% → \d+%/);
    expect(await page.locator('.plate-figure').evaluate((e) => getComputedStyle(e).breakInside)).toBe('auto'); // the figure may start on page 1
    await page.pdf({ path: join(RESULTS, 'plate-a4.pdf'), format: 'A4', printBackground: true });
    expectClean(o);
  });

  it('prints before any run the plate’s text, the reference bands and the plate’s marks, and says no run was made: no empty chart, no instruction meant for a screen', async () => {
    const o = await open('index.html');
    const { page } = o;
    await waitForStatus(page, 'Ready');
    await page.locator('.chart-heldOut .band').waitFor({ state: 'attached' }); // the reference runs' file has loaded
    expect(await page.locator('.print-note').isVisible()).toBe(false); // on screen the figure speaks for itself
    await page.emulateMedia({ media: 'print' });
    await page.setViewportSize({ width: 718, height: 1000 });
    const printed = await page.locator('.plate-figure').innerText();
    expect(printed).toMatch(
      /No run had been made on this page when it was printed: the charts show the plate’s numbers and the reference runs, precomputed\./,
    );
    for (const screenOnly of [
      /appears? here/,
      /once the first/,
      /as the run goes/,
      /no episodes yet/,
      /—\s*→\s*—/,
      / ms\b/,
    ])
      expect(printed).not.toMatch(screenOnly);
    const visible = (sel: string) =>
      page.locator(sel).evaluateAll((es) => es.filter((e) => e.getClientRects().length > 0).length);
    for (const sel of [
      '.chart-heldOut .band',
      '.chart-reward .band',
      '.chart-heldOut .marker',
      '.chart-reward .marker',
    ])
      expect(await visible(sel), sel).toBeGreaterThan(0);
    for (const sel of ['.time-split', '.episodes', '.stage-pretrain']) expect(await visible(sel), sel).toBe(0);
    expect(await visible('.numbers')).toBe(1);
    expect(await printedControls(page)).toEqual([]);
    await page.pdf({ path: join(RESULTS, 'plate-a4-before-a-run.pdf'), format: 'A4', printBackground: true });
    await page.emulateMedia({ media: 'screen' });
    expectClean(o);
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
  });
});

// What `npm run bench -- phone` measures at 4× CPU throttling rests on these: the start in pieces,
// and the far parts laid out only when the reader comes near them.
describe('the plate page on a phone-class CPU', () => {
  it('starts in pieces: React’s code first, then the plate’s text, then the figure’s code, each a script of its own', async () => {
    const page = await browser().newPage();
    const scripts: string[] = [];
    page.on('response', (r) => r.request().resourceType() === 'script' && scripts.push(r.url()));
    await page.goto(site().url + 'index.html');
    await page.locator('.live-figure').waitFor({ state: 'attached' });
    const urls = [...scripts];
    const bodies = await Promise.all(urls.map(async (u) => (await fetch(u)).text()));
    const name = (u: string) => u.split('/').pop()!;
    const holding = (text: string) => urls.filter((_, i) => bodies[i]!.includes(text)).map(name);
    const [entry] = urls.map(name);
    const plateText = holding(PLATE.title);
    const figure = holding('Where a step’s time goes');
    // The entry is React alone; the text's chunk comes next and holds none of the figure.
    expect(entry).toMatch(/^index-.*\.js$/);
    expect(plateText).toEqual([expect.stringMatching(/^Page-.*\.js$/)]);
    expect(figure).toEqual([expect.stringMatching(/^LiveFigure-.*\.js$/)]);
    expect(urls.map(name).indexOf(plateText[0]!)).toBeLessThan(urls.map(name).indexOf(figure[0]!));
    await page.close();
  });

  it('lays out the closing claims and the plate’s last sections only when the reader comes near them, and prints them all', async () => {
    const o = await openFinished('index.html?steps=2&autorun=1', { width: 390, height: 844 });
    const { page } = o;
    // A part itself is a box of its remembered size; what it holds is what goes unrendered.
    const far = ['.figure-beside:has(.longer-episode) > *', '.plate-article > .sources > *'];
    const skipped = () =>
      page.evaluate(
        (sels) => sels.map((sel) => !document.querySelector(sel)!.checkVisibility({ contentVisibilityAuto: true })),
        far,
      );
    await inPlace(page.locator('.chart-reward'));
    expect(await skipped()).toEqual([true, true]); // the charts are on screen, these far below
    expect(await shownText(page.locator('table.claims'))).toMatch(/three calls/i);
    await page.emulateMedia({ media: 'print' });
    expect(await skipped()).toEqual([false, false]);
    await page.emulateMedia({ media: null });
    expectClean(o);
  });

  for (const { width, height } of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ])
    it(`moves the page little when a reader ${width} px wide jumps from the charts to where a step's time goes and the parts on the way are laid out`, async () => {
      const o = await openFinished('index.html?steps=2&autorun=1', { width, height });
      const { page } = o;
      // The closing claims on the way are held at about their size until laid out (figure.css).
      expect(await inPlace(page.locator('details[data-part="time"]'))).toBeLessThan(80);
      expectClean(o);
    });
});
