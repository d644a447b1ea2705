// The plate as a document read down, measured as a new reader meets it (no query, no click):
// the figure compact under its caption, every deeper part one click away with a summary line,
// no chart shown empty, each result beside its own words, the plate's text whole and in order,
// headings in order; a fragment, a setting given by the URL and a link each open their part;
// Step opens the step taken apart on its episodes; and the same order on a phone.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PLATE } from '../../src/plate/text';
import { plainText } from '../../src/ui/inline';
import { BESIDE } from '../../src/ui/figure/parts/paragraphs';
import { PART, type PartId } from '../../src/ui/figure/parts/parts';
import { expectClean, inPlace, openPart, plateBrowser, showFigure, waitForStatus } from './page-helpers';

const { open } = plateBrowser();

const LAPTOP = { width: 1280, height: 1000 };
const PHONE = { width: 390, height: 844 };

/**
 * Scrolls the page through once, as a reader would, so that the parts laid out only as they near
 * (content-visibility: auto) take their size; resolves once the claims' reference figures are in
 * (their file is fetched as the section nears) and the page's height holds across two frames.
 */
async function readThrough(page: Page) {
  await page.evaluate(async () => {
    const frame = () => new Promise((done) => requestAnimationFrame(done));
    for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
      scrollTo(0, y);
      await frame();
      await frame();
    }
  });
  await page.waitForFunction(() => {
    const cells = [...document.querySelectorAll('.claims .claim-ref')];
    return cells.length > 0 && cells.every((c) => c.textContent !== '…');
  });
  await page.evaluate(async () => {
    const frame = () => new Promise((done) => requestAnimationFrame(done));
    for (let last = -1; ;) {
      await frame();
      await frame();
      const h = document.documentElement.scrollHeight;
      if (h === last) break;
      last = h;
    }
    scrollTo(0, 0);
  });
}

/** Tops and bottoms on the page, in px from its top. */
const where = (page: Page) =>
  page.evaluate((beside) => {
    const box = (e: Element | null | undefined) => {
      if (!e) return null;
      const r = e.getBoundingClientRect();
      return { top: r.top + scrollY, bottom: r.bottom + scrollY };
    };
    const paragraphs = [...document.querySelectorAll('.results > p')];
    const paragraph = (words: string) => box(paragraphs.find((p) => p.textContent!.includes(words)));
    return {
      caption: box(document.querySelector('.plate-figure figcaption'))!,
      learn: box([...document.querySelectorAll('h2')].find((h) => h.textContent === 'What you will learn'))!,
      controls: ['button.run', 'button.step', '.switch.faulty'].map((s) => box(document.querySelector(s))!),
      charts: ['.chart-heldOut', '.chart-reward'].map((s) => box(document.querySelector(s))!),
      numbers: { text: paragraph(beside.numbers)!, figure: box(document.querySelector('table.numbers'))! },
      claims: {
        text: paragraph(beside.claims)!,
        figures: [
          document.querySelector('table.claims'),
          ...document.querySelectorAll('[data-testid^="claim-chart-"]'),
        ].map((e) => box(e)!),
      },
      time: { text: paragraph(beside.time)!, figure: box(document.querySelector('details[data-part="time"]'))! },
    };
  }, BESIDE);

describe('the plate read down, at 1280 × 1000', () => {
  it('puts the figure under its caption within a screen, the rest one click away, and each result within a screen of its words', async () => {
    const o = await open('index.html', LAPTOP);
    const { page } = o;
    await waitForStatus(page, 'Ready');
    await readThrough(page);
    const at = await where(page);
    const screen = LAPTOP.height;
    expect(at.learn.top - at.caption.bottom).toBeLessThanOrEqual(1.6 * screen);
    for (const e of [...at.controls, ...at.charts]) expect(e.bottom - at.caption.bottom).toBeLessThanOrEqual(screen);
    expect(at.numbers.figure.top - at.numbers.text.bottom).toBeLessThanOrEqual(screen);
    expect(at.claims.figures).toHaveLength(4); // the table and the three trend charts
    for (const f of at.claims.figures) expect(f.top - at.claims.text.bottom).toBeLessThanOrEqual(screen);
    expect(at.time.figure.top - at.time.text.bottom).toBeLessThanOrEqual(screen);
    // Beside, not instead: each part follows the paragraph it shows, and the paragraphs keep their order.
    expect(at.numbers.text.bottom).toBeLessThan(at.claims.text.top);
    expect(at.claims.text.bottom).toBeLessThan(at.time.text.top);
    expectClean(o);
  });

  it('shows no chart empty: each one drawn says what it draws, and nothing says “no data yet”', async () => {
    const { page } = await open('index.html', LAPTOP);
    await waitForStatus(page, 'Ready');
    await readThrough(page);
    const labels = await page
      .locator('svg[role="img"]')
      .evaluateAll((svgs) => svgs.filter((s) => s.checkVisibility()).map((s) => s.getAttribute('aria-label')!));
    expect(labels.length).toBeGreaterThanOrEqual(5); // the plate's two and the three claims
    for (const label of labels) expect(label).not.toMatch(/no data yet|no run on it yet$/);
    expect(await page.getByText('no data yet').count()).toBe(0);
  });

  it('keeps the plate’s paragraphs word for word and in order, its words apart from the figure’s, and its headings in order', async () => {
    const { page } = await open('index.html', LAPTOP);
    await waitForStatus(page, 'Ready');
    await readThrough(page);
    // textContent: a section not laid out yet (content-visibility) has no innerText.
    const shown = await page
      .locator('.plate-article p:not(.plate-figure *, .figure-beside *)')
      .evaluateAll((ps) => ps.map((p) => p.textContent ?? ''));
    const plate = [
      PLATE.lede,
      ...[...PLATE.body, PLATE.workshop.text, ...PLATE.longerEpisode.paragraphs, PLATE.takeaway.text].map(plainText),
    ];
    let from = 0;
    for (const p of plate) {
      const i = shown.findIndex((s, k) => k >= from && s.replace(/\s+/g, ' ').trim() === p);
      expect(i, p.slice(0, 40)).toBeGreaterThanOrEqual(from);
      from = i + 1;
    }
    const levels = await page
      .locator('h1, h2, h3, h4, h5, h6')
      .evaluateAll((hs) => hs.filter((h) => h.checkVisibility()).map((h) => Number(h.tagName[1])));
    for (let i = 1; i < levels.length; i++)
      expect(levels[i]! - levels[i - 1]!, `h${levels[i - 1]} → h${levels[i]}`).toBeLessThanOrEqual(1);
  });

  it('opens each deeper part with one click on its summary line, which says what it holds', async () => {
    const { page } = await open('index.html', LAPTOP);
    await waitForStatus(page, 'Ready');
    const folded = await page
      .locator('details[data-part]')
      .evaluateAll((ds) => ds.map((d) => ({ id: d.getAttribute('data-part')!, open: (d as HTMLDetailsElement).open })));
    const closed = folded.filter((d) => !d.open).map((d) => d.id as PartId);
    for (const id of ['behaviour', 'terms', 'start', 'step', 'practitioner', 'export', 'time', 'run-yourself'] as const)
      expect(closed).toContain(id);
    for (const id of closed) {
      const part = page.locator(`details[data-part="${id}"]`);
      expect(await part.locator('summary').innerText()).toContain(PART[id].holds);
      await openPart(page, id);
      expect((await part.locator('.part-body').innerText()).length, id).toBeGreaterThan(40);
    }
  });

  it('opens the step taken apart on Step, on the step’s own sampled episodes', async () => {
    const { page } = await open('index.html', LAPTOP);
    await waitForStatus(page, 'Ready');
    await showFigure(page);
    await page.locator('button.step').click();
    await waitForStatus(page, 'Paused');
    const step = page.locator('details[data-part="step"]');
    expect(await step.evaluate((d: HTMLDetailsElement) => d.open)).toBe(true);
    await step.locator('.episodes h3', { hasText: 'Episodes of step 1' }).waitFor();
    expect(await step.locator('.episode-table tbody tr:not(.push-detail-row)').count()).toBe(8);
    expect(await step.locator('summary').innerText()).toMatch(/step 1: 64 episodes in 8 groups/);
  });
});

describe('a part opens itself when it is named', () => {
  it('by the URL’s fragment, scrolled to', async () => {
    const { page } = await open('index.html#mtrl-practitioner', LAPTOP);
    const part = page.locator('details[data-part="practitioner"]');
    await part.locator('.part-body').waitFor({ state: 'visible' });
    await page.waitForFunction(() => {
      const r = document.querySelector('details[data-part="practitioner"]')!.getBoundingClientRect();
      return r.top >= 0 && r.top < innerHeight / 2;
    });
  });

  it('by a setting the URL gives, and by the note’s link to where it is set', async () => {
    const { page } = await open('index.html?masking=off&updates-per-batch=2', LAPTOP);
    await waitForStatus(page, 'Ready');
    for (const id of ['terms', 'practitioner'])
      expect(await page.locator(`details[data-part="${id}"]`).evaluate((d: HTMLDetailsElement) => d.open), id).toBe(
        true,
      );
    expect(await page.locator('details[data-part="start"]').evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    await page.locator('details[data-part="terms"] > summary').click(); // the reader folds it
    const link = page.locator('.figure-notes').getByRole('link', { name: PART.terms.title });
    await inPlace(link);
    await link.click();
    await page.locator('details[data-part="terms"] .term-switches').waitFor({ state: 'visible' });
  });
});

describe('the plate read down on a phone (390 × 844)', () => {
  it('keeps the same order, the figure and its parts within three screens, no sideways scroll', async () => {
    const o = await open('index.html', PHONE);
    const { page } = o;
    await waitForStatus(page, 'Ready');
    await readThrough(page);
    const at = await where(page);
    expect(at.learn.top - at.caption.bottom).toBeLessThanOrEqual(3 * PHONE.height);
    expect(at.numbers.text.bottom).toBeLessThan(at.claims.text.top);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expectClean(o);
  });
});
