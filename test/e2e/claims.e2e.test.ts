// The plate's closing claims as a reader meets them in real headless Chromium: no query, no click,
// scroll down to "The same algorithm, a longer episode" and the evidence is there; "Run every
// length" trains the held-fixed agent on every length and fills the reader's figures; a phone
// reads each claim whole; a file that cannot come is said in words.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from '../../src/config';
import { runWorkshop } from '../../src/node/run-workshop';
import { callsWords } from '../../src/env/world';
import { CLAIM_AGENT, CLAIM_LENGTHS } from '../../src/ui/figure/claims/longer-episode';
import { RUN_EVERY_LENGTH } from '../../src/ui/figure/claims/LongerEpisode';
import { pct } from '../../src/ui/format';
import { useWasm } from '../tf';
import { download, expectClean, inPlace, openPart, plateBrowser, showFigure, waitForStatus } from './page-helpers';

const { browser, site, open } = plateBrowser();
beforeAll(() => useWasm()); // the Node workshop runs beside the page

/** The held-fixed agent's reference file, as the page names it (hashed in the build). */
const CLAIMS_FILE = /reference-runs-three-calls[-\w]*\.json$/;
const CLAIMED = ['reward', 'allFail', 'pushedDown', 'pushedDownFaulty', 'faultyCap'];

/** Every claim row's reference figures at each length, and its verdict, as the table shows them. */
const tableOf = (page: Page) =>
  page.getByTestId('claims').evaluate((t) =>
    [...t.querySelectorAll('tbody tr')].map((tr) => ({
      claim: tr.getAttribute('data-claim')!,
      refs: [...tr.querySelectorAll('.claim-ref')].map((e) => e.textContent),
      yours: [...tr.querySelectorAll('.claim-length')].map((e) => e.querySelector('.claim-yours')?.textContent ?? null),
      shows: tr.querySelector('.claim-shows')!.textContent,
    })),
  );

/** The table is in: every claimed row's figures at every length. */
const filled = (page: Page) =>
  page.waitForFunction(
    (n) =>
      [...document.querySelectorAll('[data-testid="claims"] .claim-ref')].filter((e) => /\d/.test(e.textContent ?? ''))
        .length === n,
    6 * CLAIM_LENGTHS.length,
    { timeout: 30_000 },
  );

describe('the closing claims on first sight', () => {
  it('fetch the held-fixed agent’s runs only as the section comes near, and fill the table and the charts', async () => {
    const o = await open('index.html');
    const { page } = o;
    const fetched: string[] = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await showFigure(page);
    await waitForStatus(page, 'Ready');
    expect(fetched.filter((f) => CLAIMS_FILE.test(f))).toEqual([]); // the charts above fetch nothing of it
    // Before the file: "…" in the table, and charts that say the runs are not in yet.
    expect(await page.locator('tr[data-claim="reward"] .claim-ref').first().textContent()).toBe('…');

    await inPlace(page.getByTestId('claims'));
    await filled(page);
    expect(fetched.filter((f) => CLAIMS_FILE.test(f))).toHaveLength(1);
    const table = await tableOf(page);
    for (const row of table.filter((r) => CLAIMED.includes(r.claim))) {
      expect(row.refs, row.claim).toHaveLength(CLAIM_LENGTHS.length);
      expect(row.shows, row.claim).toMatch(/^(Grows with every call|Grows, then flattens|Does not grow here) \(/);
    }
    // The plate's way, as the shipped file reads (test/ui/claims.test.ts holds the figures to it).
    expect(table.find((r) => r.claim === 'faultyCap')!.refs).toEqual(['0.73', '0.49', '0.37']);
    for (const key of ['allFail', 'pushedDown', 'faultyCap']) {
      const label = await page.locator(`[data-testid="claim-chart-${key}"] svg[role="img"]`).getAttribute('aria-label');
      expect(label).toMatch(
        /against the number of calls: our reference runs \(a mean over each run’s 40 GRPO steps, then over 5 seeds\): one call [\d.]+%? \(seeds [\d.]+%?–[\d.]+%?\), two calls .*, three calls/,
      );
      expect(await page.locator(`[data-testid="claim-chart-${key}"] .trend-reference circle`).count()).toBe(3);
    }
    // At the plate's scale, from the same file (the charts' chunk comes with it): each chart the
    // model's line over the measured points.
    await page.getByTestId('scale-check').waitFor();
    for (const key of ['sparser', 'credit', 'sampling']) {
      const chart = page.getByTestId(`scale-chart-${key}`);
      expect(await chart.locator('.scale-model path').count(), key).toBeGreaterThan(0);
      expect(await chart.locator('.trend-reference circle').count(), key).toBeGreaterThanOrEqual(3);
    }
    expect(await page.getByTestId('scale-check').textContent()).toMatch(
      /: the model (holds|does not hold) at 3 calls\.$/,
    );
    expectClean(o);
  });

  it('say in words that the file cannot be had, with its address and what still works, and train on', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.route(CLAIMS_FILE, (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.goto(site().url + 'index.html?steps=2');
    await page.locator('.live-figure').waitFor({ state: 'attached' });
    await inPlace(page.getByTestId('claims'));
    const note = page.locator('.claims-unavailable');
    await note.waitFor();
    expect(await note.innerText()).toMatch(
      /^The precomputed reference band is not shown: http:\/\/\S+\/reference-runs-three-calls[-\w]*\.json did not load \(HTTP 404\); .+ The claims’ reference figures and bars are left out; your own runs still fill/,
    );
    expect(await page.locator('tr[data-claim="reward"] .claim-ref').first().textContent()).toBe('—');
    await openPart(page, 'run-yourself');
    await page.getByRole('button', { name: RUN_EVERY_LENGTH }).click();
    await openPart(page, 'export');
    await page.locator('.run-export-lengths').waitFor({ timeout: 120_000 });
    expect(
      (await tableOf(page)).find((r) => r.claim === 'reward')!.yours.every((y) => /^ you \d+%$/.test(y ?? '')),
    ).toBe(true);
    await context.close();
  });

  it('print: asked for as the page is printed, the file fills the table on paper', async () => {
    const o = await open('index.html');
    const { page } = o;
    await waitForStatus(page, 'Ready');
    await page.emulateMedia({ media: 'print' });
    // Not near, not fetched: the paper says so rather than print "…" as a figure.
    expect(await page.locator('.longer-episode .print-only').isVisible()).toBe(true);
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    await filled(page);
    expect(await page.locator('.longer-episode .print-only').count()).toBe(0);
    expect(await page.locator('.run-every-length').isVisible()).toBe(false); // a control, and words for a screen
    await page.emulateMedia({ media: 'screen' });
    expectClean(o);
  });
});

describe('Run every length', () => {
  it(`trains the ${CLAIM_AGENT} agent on every length, one after the other, as the Node workshop does, and fills “you” at each`, async () => {
    const steps = 3;
    const node = await Promise.all(
      CLAIM_LENGTHS.map((episode) => runWorkshop({ seed: DEFAULT_SEED, steps, episode, agent: CLAIM_AGENT })),
    );
    const o = await open(`index.html?steps=${steps}`);
    const { page } = o;
    await showFigure(page);
    await waitForStatus(page, 'Ready');
    // Every word the status says of the sequence, as it says it.
    await page.evaluate(() => {
      const seen: string[] = ((window as unknown as { sequenceSaid: string[] }).sequenceSaid = []);
      new MutationObserver(() => {
        const t = document.querySelector('.status-sequence')?.textContent;
        if (t && seen.at(-1) !== t) seen.push(t);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await openPart(page, 'run-yourself');
    const button = page.getByRole('button', { name: RUN_EVERY_LENGTH });
    await inPlace(button);
    await button.click();
    await openPart(page, 'export'); // open before the run: it stays open from one length to the next
    await page.locator('.run-export-lengths').waitFor({ timeout: 120_000 });
    await waitForStatus(page, 'Finished');
    const said = await page.evaluate(() => (window as unknown as { sequenceSaid: string[] }).sequenceSaid);
    expect(said).toEqual(CLAIM_LENGTHS.map((e, i) => ` · ${callsWords(e)}, ${i + 1} of ${CLAIM_LENGTHS.length}`));

    const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const reward = (await tableOf(page)).find((r) => r.claim === 'reward')!;
    expect(reward.yours).toEqual(node.map((n) => ` you ${pct(mean(n.meanReward))}`));
    const allFail = await page
      .locator('[data-testid="claim-chart-allFail"] svg[role="img"]')
      .getAttribute('aria-label');
    expect(allFail).toContain(
      `your runs (a mean over the GRPO steps so far): ${CLAIM_LENGTHS.map((e, i) => `${callsWords(e)} ${pct(mean(node[i]!.records.slice(1).map((r) => r.allFailGroups!)))} over ${steps} steps`).join(', ')}`,
    );
    // The export carries every length's run; its link runs them all again.
    const { file, text } = await download(page, /every length’s GRPO metrics as JSON Lines/);
    expect(file).toBe(
      `plate-XXVI.3-runs-three-call-agent-agent-reliable-seed-${DEFAULT_SEED}-every-length.metrics.jsonl`,
    );
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { episode: string });
    expect(lines.map((l) => l.episode)).toEqual(CLAIM_LENGTHS.flatMap((e) => Array<string>(steps).fill(e)));
    // Each link named apart from the run's own export beside it.
    const curves = await download(page, /every length’s curves as CSV/);
    expect(curves.text.split('\n')[0]).toMatch(/^episode,seed,stage,step,/);
    expect(curves.text.split('\n').filter((l) => l.startsWith('three-calls,')).length).toBe(steps + 1);
    const link = await page.getByRole('link', { name: 'a link that runs every length again' }).getAttribute('href');
    expect(new URL(link!).searchParams.get('every-length')).toBe('1');
    expectClean(o);
  });
});

describe('Run every length, interrupted', () => {
  it('holds on Pause, and ends on Reset with the button free again', async () => {
    const o = await open('index.html');
    const { page } = o;
    await showFigure(page);
    await waitForStatus(page, 'Ready');
    await openPart(page, 'run-yourself');
    const button = page.getByRole('button', { name: RUN_EVERY_LENGTH });
    await inPlace(button);
    await button.click();
    const sequence = page.locator('.status-sequence');
    await page.waitForFunction(() =>
      /step [1-9]/.test(document.querySelector('[data-testid="status-step"]')?.textContent ?? ''),
    );
    await page.getByRole('button', { name: 'Pause' }).click();
    await waitForStatus(page, 'Paused');
    expect(await sequence.innerText()).toBe(`· ${callsWords(CLAIM_LENGTHS[0]!)}, 1 of ${CLAIM_LENGTHS.length}`);
    expect(await button.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Reset' }).click();
    await waitForStatus(page, 'Ready');
    expect(await sequence.count()).toBe(0);
    expect(await button.isDisabled()).toBe(false);
    expectClean(o);
  });
});

describe('the claims on a phone', () => {
  it('read each claim whole at 390 px: its words, every length’s figure and the verdict on the screen, no sideways swipe', async () => {
    const o = await open('index.html', { width: 390, height: 844 });
    const { page } = o;
    await inPlace(page.getByTestId('claims'));
    await filled(page);
    const wrap = page.locator('.claims-wrap');
    expect(await wrap.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    for (const claim of CLAIMED) {
      const row = page.locator(`tr[data-claim="${claim}"]`);
      await inPlace(row);
      const boxes = await row.evaluate((tr) =>
        [...tr.querySelectorAll('th, .claim-length, .claim-shows')].map((e) => {
          const r = e.getBoundingClientRect();
          return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
        }),
      );
      for (const b of boxes) {
        expect(b.left, claim).toBeGreaterThanOrEqual(0);
        expect(b.right, claim).toBeLessThanOrEqual(390);
        expect(b.top, claim).toBeGreaterThanOrEqual(0);
        expect(b.bottom, claim).toBeLessThanOrEqual(844);
      }
    }
    const caption = await page.locator('.claims caption').evaluate((c) => c.getBoundingClientRect().right);
    expect(caption).toBeLessThanOrEqual(390);
    expectClean(o);
  });
});
