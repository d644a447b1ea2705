// One GRPO step taken apart, in the built page in headless Chromium: Step in each stage, the push
// under each character (walked group by group, with masking on and off), the reader's own sum,
// and a run with asks that ends bit for bit like one without (through the worker harness).
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { WorkerState } from '../../src/client/worker-state';
import { openHarness, watch } from '../browser/chromium';
import {
  expectAccessible,
  expectClean,
  inPlace,
  openPart,
  plateBrowser,
  RESULTS,
  showFigure,
  shownText,
  waitForStatus,
} from './page-helpers';

const { browser, site, open: openPage } = plateBrowser();

/** The page at `path` with the figure in view (out of view, a run pauses itself). */
async function open(path: string, opts: { width?: number } = {}) {
  const o = await openPage(path, { width: opts.width ?? 1280, height: 900 });
  await showFigure(o.page);
  return o;
}

const where = (page: Page) => page.getByTestId('status-step').innerText();
const stepButton = (page: Page) => page.getByRole('button', { name: /^Step/ });

/** Presses Step and waits for the pause it ends in, `after` (e.g. "after GRPO step 2"); returns where the run is. */
async function step(page: Page, after: string): Promise<string> {
  await stepButton(page).click();
  await page.waitForFunction(
    (a) =>
      document.querySelector('.status-word')?.textContent === 'Paused' &&
      document.querySelector('.status-after')?.textContent === a,
    after,
    { timeout: 90_000, polling: 50 },
  );
  return `${await where(page)} | ${await page.locator('.status-after').innerText()}`;
}

describe('Step', () => {
  for (const [start, stage, word, chart] of [
    ['agent', 'GRPO', 'GRPO', 'heldOut'],
    ['pretrained', 'Fine-tuning', 'fine-tuning', 'sft-loss'],
    ['scratch', 'Pre-training', 'pre-training', 'pretrain-loss'],
  ] as const) {
    it(`takes exactly one ${stage} step from Ready and one more from paused, then Resume runs on (start=${start})`, async () => {
      const o = await open(`index.html?start=${start}&steps=3`);
      const { page } = o;
      await waitForStatus(page, 'Ready');
      const of = stage === 'GRPO' ? 3 : stage === 'Fine-tuning' ? 200 : 100;
      // Each Step ends in a pause one step on; had it taken two, the pause would say so first.
      expect(await step(page, `after ${word} step 1`)).toBe(`${stage} · step 1 of ${of} | after ${word} step 1`);
      expect(await step(page, `after ${word} step 2`)).toBe(`${stage} · step 2 of ${of} | after ${word} step 2`);
      expect(await page.locator(`.chart-${chart} svg[role="img"]`).getAttribute('aria-label')).toMatch(
        new RegExp(`step 2 of ${of}: `),
      );
      await page.getByRole('button', { name: 'Resume' }).click();
      if (stage === 'GRPO') await waitForStatus(page, 'Finished');
      else
        await page.waitForFunction(
          (s) => !document.querySelector('[data-testid="status-step"]')?.textContent?.startsWith(`${s} · step 2 `),
          stage,
          { timeout: 30_000 },
        );
      expectClean(o);
    });
  }

  it('is inert while a run trains, and says “Stepping…”, then “Pausing…”, at once while a step is on the way', async () => {
    const o = await open('index.html?steps=3&backend=cpu'); // seconds per step on the CPU backend
    const { page } = o;
    await waitForStatus(page, 'Ready');
    await stepButton(page).click();
    await page.getByRole('button', { name: 'Stepping…' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Stepping…' }).getAttribute('aria-disabled')).toBe('true');
    await waitForStatus(page, 'Paused', 120_000);
    await page.getByRole('button', { name: 'Resume' }).click();
    await waitForStatus(page, 'Training');
    expect(await stepButton(page).getAttribute('aria-disabled')).toBe('true');
    // Pause while GRPO step 2 computes: the button says so at once, and a second click changes nothing.
    // "At once": the button says "Pausing…" before the step on the way (seconds on this backend)
    // ends and it says "Resume"; waiting for either and finding "Pausing…" shows that order
    // on a machine of any speed.
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: /^(Pausing…|Resume)$/ }).waitFor({ timeout: 60_000 });
    const pausing = page.getByRole('button', { name: 'Pausing…' });
    expect(await pausing.count()).toBe(1);
    expect(await pausing.getAttribute('aria-disabled')).toBe('true');
    await pausing.click({ force: true });
    await waitForStatus(page, 'Paused', 120_000);
    expect(await page.getByRole('button', { name: 'Resume' }).count()).toBe(1);
    expectClean(o);
  });
});

/** The accessible names of every character of the shown group, per episode. */
const groupNames = (page: Page) =>
  page
    .locator('.episode-table [role="list"]')
    .evaluateAll((lists) =>
      lists.map((l) => [...l.querySelectorAll('[role="listitem"]')].map((c) => c.getAttribute('aria-label')!)),
    );

describe('the push, character by character', () => {
  it('names every model character with its probability before and after, in every group; masking off names the calculator’s too', async () => {
    const o = await open('index.html?steps=1&autorun=1');
    const { page } = o;
    await waitForStatus(page, 'Finished');
    await openPart(page, 'step'); // a run, not a Step: the reader opens the step taken apart
    const PUSHED = /^\S \d\.\d+ → \d\.\d+$|^\S \d(\.\d+)?e-\d+ → /;
    const walk = async () => {
      const groups: string[][][] = [];
      for (let g = 0; g < 8; g++) {
        if (g > 0) {
          await inPlace(page.getByRole('button', { name: 'Next group' }));
          await page.getByRole('button', { name: 'Next group' }).click();
        }
        await page.locator('.group-nav', { hasText: `group ${g + 1} of 8` }).waitFor();
        groups.push(await groupNames(page));
        expect(await shownText(page.locator('.group-arithmetic h4'))).toMatch(/^From rewards to advantages: \d+\+\d+$/);
      }
      for (let g = 0; g < 7; g++) await page.getByRole('button', { name: 'Previous group' }).click();
      return groups;
    };
    const on = await walk();
    expect(on.map((eps) => eps.length)).toEqual(Array(8).fill(8));
    for (const names of on.flat()) {
      expect(names[0]).toMatch(PUSHED); // the model writes the first character after the prompt
      expect(names.filter((n) => PUSHED.test(n)).length + names.filter((n) => / not trained on$/.test(n)).length).toBe(
        names.length,
      );
    }
    expect(on.flat(2).some((n) => / not trained on$/.test(n))).toBe(true);

    // Focus and the arrow keys walk the characters; the sentence follows.
    await page.locator('.episode-table [role="listitem"][tabindex="0"]').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/→|not trained on/);
    expect(await page.locator('.push-detail .push-sentence').innerText()).toMatch(/^“.”, the (model|calculator)’s: /);

    await openPart(page, 'terms');
    await page.getByRole('switch', { name: /Observation masking/ }).uncheck();
    await page.getByRole('button', { name: 'Run', exact: true }).click(); // after a finished run, a setting waits for Run
    await page
      .locator('.chart-legend', { hasText: 'this run: reliable, masking off' })
      .first()
      .waitFor({ timeout: 90_000 });
    await waitForStatus(page, 'Finished');
    const off = await walk();
    expect(off.flat(2).some((n) => / not trained on$/.test(n))).toBe(false);
    for (const names of off.flat()) for (const n of names) expect(n).toMatch(PUSHED);
    expect(await page.locator('.push-line').first().innerText()).toMatch(
      /^its characters \d+\.\d+× as likely on average$/,
    );
    expectClean(o);
  });
});

describe('the push on a phone (390×844, touch)', () => {
  it('shows a tapped character’s before → after beside it and keeps it marked until another is tapped; every target is 24 CSS px at least', async () => {
    const context = await browser().newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    const page = await context.newPage();
    const watched = watch(context, page, new URL(site().url).origin);
    await page.goto(site().url + 'index.html?steps=2');
    await page.locator('.plate-figure').scrollIntoViewIfNeeded();
    await waitForStatus(page, 'Ready');
    await step(page, 'after GRPO step 1');
    const chars = page.locator('.episode-table tbody tr:first-child [role="listitem"]');
    const tapped = chars.nth(2);
    // As a reader scrolls: the parts passed on the way are laid out as they come near the screen
    // (content-visibility, src/styles/figure.css) and may move the table; the reader brings the
    // character to the middle of the screen once the page is still, and taps it.
    await inPlace(tapped);
    await tapped.tap();
    const detail = page.locator('.push-detail');
    await detail.waitFor();
    const [c, d] = [(await tapped.boundingBox())!, (await detail.boundingBox())!];
    expect(d.y - (c.y + c.height)).toBeLessThan(80); // right under its episode, not under the table
    expect(d.y + d.height).toBeLessThanOrEqual(844); // on the screen
    const name = (await tapped.getAttribute('aria-label'))!;
    const [ch, numbers] = [name.slice(0, 1), name.slice(2)];
    expect(await detail.locator('.push-arrow').innerText()).toMatch(
      numbers.includes('→') ? `${numbers} (` : 'not trained on',
    );
    expect(await detail.locator('.push-arrow code').innerText()).toBe(ch);
    expect(await tapped.getAttribute('class')).toMatch(/\bshown\b/);
    await page.mouse.move(0, 0); // off the rows before the page scrolls (below)
    await inPlace(page.locator('.episodes h3'));
    await page.locator('.episodes h3').tap(); // a tap elsewhere leaves it marked
    expect(await tapped.getAttribute('class')).toMatch(/\bshown\b/);
    // Touch emulation keeps a tap's point as the mouse's: when a scroll brings a character under
    // that point, Chromium hovers it and the character shows (CI at f632edb showed one of the next
    // episode's '|'). A phone has no pointer left there; the emulation's is moved off the rows.
    await page.mouse.move(0, 0);
    const after = page.getByRole('button', { name: 'The character after' });
    await inPlace(after); // under the detail, it may stand below the screen's edge
    await after.tap();
    await chars.nth(3).and(page.locator('.shown')).waitFor(); // the tap's click comes when the browser gets to it
    expect(await tapped.getAttribute('class')).not.toMatch(/\bshown\b/);
    await chars.nth(1).tap();
    expect(await page.locator('.episode-table .shown').count()).toBe(1);

    // WCAG 2.2 2.5.8: every target 24×24 at least; a character (a few px wide) is 24 tall and has ‹ › beside it.
    const small = await page.locator('.plate-figure').evaluate((fig) =>
      [...fig.querySelectorAll<HTMLElement>('button, input, select, summary, a, [tabindex="0"], [role="listitem"]')]
        .filter((e) => e.getClientRects().length > 0 && !e.closest('.run-export')) // links inside a sentence are exempt
        .map((e) => ({ e, r: e.getBoundingClientRect() }))
        .filter(({ e, r }) => (e.getAttribute('role') === 'listitem' ? r.height < 24 : r.width < 24 || r.height < 24))
        .map(
          ({ e, r }) =>
            `${e.tagName.toLowerCase()}.${e.className} ${e.getAttribute('aria-label') ?? e.textContent?.slice(0, 20)}: ${r.width.toFixed(0)}×${r.height.toFixed(0)}`,
        ),
    );
    expect(small).toEqual([]);
    expect(await page.locator('.episode-legend').innerText()).not.toMatch(/\b8 (more|less) likely/);
    // A formula breaks only after an "=", never inside an expression.
    const broken = await page
      .locator('.formula-part')
      .evaluateAll((ps) => ps.filter((p) => p.getClientRects().length > 1).map((p) => p.textContent));
    expect(broken).toEqual([]);
    await page.screenshot({ path: join(RESULTS, 'push-phone-tap.png') });
    expectClean(watched);
    await context.close();
  });
});

describe('Ask the agent', () => {
  it('answers a good sum before any run, names what is wrong with bad ones and changes nothing else, and answers while a run trains', async () => {
    const o = await open('index.html?steps=3');
    const { page } = o;
    await waitForStatus(page, 'Ready');
    await openPart(page, 'step');
    const box = page.getByRole('textbox', { name: /sum/ });
    const ask = page.getByRole('button', { name: 'Ask' });
    await inPlace(ask);
    await box.fill('57+38');
    await ask.click();
    const answer = page.getByRole('group', { name: /The agent’s answer to 57\+38/ });
    await answer.waitFor();
    const first = await answer.innerText();
    expect(first).toMatch(/57\+38 is a new sum/);
    expect(first).toMatch(/Played by the shipped agent/);
    expect(first).toMatch(/Greedy, reliable calculator: \^57\+38=B/);
    expect(first).toMatch(/8 samples at temperature 1 with the reliable calculator: \d of 8 right/);
    expect(await answer.locator('.ask-samples li').count()).toBe(8);

    for (const [bad, said] of [
      ['5+', '“5+” needs a second number after the +, such as 57+38.'],
      [
        '100+3',
        'The agent knows sums of two whole numbers from 10 to 99 (the world’s range): 100 and 3 are outside it.',
      ],
      [
        'abc',
        '“abc” is not a sum the agent can read: write two whole numbers from 10 to 99 joined by +, such as 57+38.',
      ],
      ['', 'Type a sum first: two whole numbers from 10 to 99 joined by +, such as 57+38.'],
    ]) {
      await box.fill(bad!);
      await box.press('Enter');
      expect(await page.getByRole('alert').innerText()).toBe(said);
      expect(await box.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator(`[id="${await box.getAttribute('aria-describedby')}"]`).innerText()).toBe(said);
      // Nothing else changed; the answer says it belongs to the sum before.
      expect(await answer.innerText()).toBe(
        first.replace('The agent’s answer to 57+38', 'The answer to your previous sum, 57+38'),
      );
      expect(await page.locator('.status-word').innerText()).toBe('Ready');
    }
    // A 500-character sum, + and all, is kept whole and named as too long (not cut to a prefix
    // that "needs a second number after the +"); the alert quotes a short prefix of it.
    const sum500 = `${'1'.repeat(250)}+${'2'.repeat(249)}`;
    await box.fill(sum500);
    await box.press('Enter');
    expect(await box.inputValue()).toBe(sum500);
    const flood = await page.getByRole('alert').innerText();
    expect(flood).toMatch(/^“1{12}…” is too long: 500 characters, where a sum the agent can read has at most 16\./);
    expect(flood.length).toBeLessThan(160);
    await box.fill('23+45');
    expect(await box.getAttribute('aria-invalid')).toBe('false');

    // While a run trains: answered at a step boundary by the run's policy of that moment.
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await waitForStatus(page, 'Training');
    // Enter in the box: a click could land beside Ask while the run's first episodes lay out the part above.
    await box.press('Enter');
    const during = page.getByRole('group', { name: /The agent’s answer to 23\+45/ });
    await during.waitFor({ timeout: 60_000 });
    expect(await during.innerText()).toMatch(/23\+45 is a training sum|23\+45 is a held-out sum|23\+45 is a new sum/);
    expect(await during.innerText()).toMatch(/Played by (this run’s policy after GRPO step \d|the shipped agent)/);
    await waitForStatus(page, 'Finished');
    await box.fill('10+99');
    await ask.click();
    await page.getByRole('group', { name: /The agent’s answer to 10\+99/ }).waitFor();
    expect(await page.locator('.ask-answer').innerText()).toMatch(/Played by this run’s policy after GRPO step 3/);
    expectClean(o);
  });

  it('keeps the figure accessible (axe, light and dark) and within a 390 px screen with a step’s push, an answer and the demonstrations shown', async () => {
    const o = await open('index.html?steps=2&faulty=1', { width: 390 });
    const { page } = o;
    await waitForStatus(page, 'Ready');
    await step(page, 'after GRPO step 1');
    await inPlace(page.getByRole('button', { name: 'Ask' }));
    await page.getByRole('textbox', { name: /sum/ }).fill('57+38');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.locator('.ask-answer').waitFor();
    await page.getByRole('textbox', { name: /sum/ }).fill('5+');
    await page.getByRole('button', { name: 'Ask' }).click(); // the error state too
    await openPart(page, 'start');
    await inPlace(page.locator('.taught summary'));
    await page.locator('.taught summary').click(); // the demonstrations' transcripts
    await page.locator('.episode-table [role="listitem"][tabindex="0"]').focus();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await expectAccessible(page);
    expectClean(o);
  }, 240_000);
});

describe('asking never changes the run', () => {
  it('ends a run with asks at every step bit for bit like the same run without them', async () => {
    const h = await openHarness(await browser().newPage(), inject('siteUrl'));
    await h.until((s) => s.status === 'ready');
    const figures = (s: WorkerState) => s.run!.steps.map(({ timings: _, timeSplit: __, ...r }) => r);
    await h.start({ steps: 3 });
    const plain = figures(await h.until((s) => s.status === 'done'));
    await h.call('reset');
    await h.until((s) => s.status === 'ready');
    // An ask at every frame until the page hears the run is done: the page's own event loop sends
    // them, mid-run (on WASM's fused kernels three steps can all land in one of the page's redraws,
    // so asking once per step the page hears of could miss the run altogether).
    await h.page.evaluate(() => {
      let id = 100;
      const watch = () => {
        const w = window.plateWorker!;
        if (w.status === 'done') return;
        w.ask({ id: ++id, sum: { a: 57, b: 38 }, faulty: id % 2 === 0, temperature: 1 });
        requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
    });
    await h.start({ steps: 3 });
    const done = await h.until((s) => s.status === 'done' && s.asks.waiting.length === 0);
    expect(done.asks.answer).toMatchObject({ sum: { a: 57, b: 38 }, by: { kind: 'run', stage: 'grpo' } });
    expect(figures(done)).toEqual(plain);
    expect(done.run!.steps.map((r) => r.episodes.length)).toEqual([0, 64, 64, 64]);
    await h.page.close();
  });
});
