// <plate-multi-turn-rl> in real headless Chromium, built from the source: its attributes are live.
// A host page's script that changes start, faulty, masking, advantage, temperature, grader or autorun gets
// what a reader gets from the matching control; one that changes something the worker is made
// with (the backend, the files, the worker's script) is told so in words, and the reader's
// settings stay.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, pageReuser, watch, type Watched } from '../browser/chromium';
import { openPart } from './page-helpers';

const site = inject('siteUrl');
let browser: Browser;
let reuse: ReturnType<typeof pageReuser>;

beforeAll(async () => {
  browser = await launch();
  reuse = pageReuser(browser);
});

afterAll(async () => {
  await browser?.close();
});

async function open(): Promise<{ page: Page } & Watched> {
  // Tall enough that the figure is in view: the plate pauses training out of sight.
  const page = await reuse({ width: 1280, height: 6000 });
  const watched = watch(page.context(), page, new URL(site).origin);
  await page.goto(`${site}element.html`);
  return { page, ...watched };
}

const word = (page: Page, ...words: string[]) =>
  page.waitForFunction((ws) => ws.includes(document.querySelector('.status-word')?.textContent ?? ''), words, {
    timeout: 90_000,
    polling: 50,
  });
const setAttr = (page: Page, name: string, value: string | null) =>
  page.evaluate(
    ([n, v]) =>
      v === null
        ? document.getElementById('plate')!.removeAttribute(n!)
        : document.getElementById('plate')!.setAttribute(n!, v),
    [name, value],
  );
/** The live run is the one `label` names (the legend's "this run: …"), and it has finished. */
async function finished(page: Page, label: string) {
  await page.waitForFunction(
    (l) =>
      [...document.querySelectorAll('.chart-legend li')].some((li) => li.textContent?.trim() === l) &&
      document.querySelector('.status-word')?.textContent === 'Finished',
    label,
    { timeout: 90_000, polling: 50 },
  );
}
/** The reader's Run, once the run before has finished. */
const run = (page: Page) => page.getByRole('button', { name: 'Run', exact: true }).click();
const faulty = (page: Page) => page.getByRole('switch', { name: /Faulty calculator/ });
const masking = (page: Page) => page.getByRole('switch', { name: /Observation masking/ });
const temperature = (page: Page) => page.getByRole('combobox', { name: /Temperature/ });

describe('the custom element’s attributes', () => {
  it('act like the matching control: a changed calculator or credit setting trains a run with it', async () => {
    const o = await open();
    const { page } = o;
    await word(page, 'Ready');
    expect(await faulty(page).isChecked()).toBe(false);

    // No run yet: like flipping the switch, the setting waits for Run.
    await setAttr(page, 'faulty', '');
    await expect.poll(() => faulty(page).isChecked()).toBe(true);
    expect(await page.locator('.status-word').innerText()).toBe('Ready');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await finished(page, 'this run: faulty');

    // With a finished run on the charts, as with the switch: the setting waits for Run, and says so
    // beside the controls; Run takes GRPO again, from that run's agent, with masking off.
    await setAttr(page, 'masking', 'off');
    // The attribute opens the part its control lives in, as a reader's own change would be seen there.
    await expect
      .poll(() => page.locator('details[data-part="terms"]').evaluate((d: HTMLDetailsElement) => d.open))
      .toBe(true);
    await expect.poll(() => masking(page).isChecked()).toBe(false);
    await page.locator('.settings-wait').waitFor();
    expect(await page.locator('.settings-wait').innerText()).toContain('wait for Run or Step');
    expect(await page.locator('.status-word').innerText()).toBe('Finished');
    await run(page);
    await finished(page, 'this run: faulty, masking off');

    await setAttr(page, 'advantage', 'raw');
    await setAttr(page, 'temperature', '1.5');
    await setAttr(page, 'grader', 'crash-pass');
    await expect.poll(() => page.getByRole('radio', { name: 'raw reward' }).isChecked()).toBe(true);
    await expect.poll(() => temperature(page).inputValue()).toBe('1.5');
    await expect.poll(() => page.getByRole('combobox', { name: /Grader/ }).inputValue()).toBe('crash-pass');
    await run(page);
    await finished(page, 'this run: faulty, masking off, raw reward, temperature 1.5, a crash counts as a pass');

    // A removed boolean attribute is off, as in HTML: the switch follows.
    await setAttr(page, 'faulty', null);
    await expect.poll(() => faulty(page).isChecked()).toBe(false);
    await run(page);
    await finished(page, 'this run: reliable, masking off, raw reward, temperature 1.5, a crash counts as a pass');

    await setAttr(page, 'start', 'pretrained');
    await expect.poll(() => page.getByRole('radio', { name: /the worksheet model/ }).isChecked()).toBe(true);
    await run(page);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="status-step"]')?.textContent?.startsWith('Fine-tuning'),
      undefined,
      { timeout: 60_000 },
    );
    await page.getByRole('button', { name: 'Pause' }).click();
    await word(page, 'Paused');
    expect(o.errors, 'console errors').toEqual([]);
    expect(o.foreign, 'requests to another origin').toEqual([]);
  });

  it('autorun, set after the plate loaded, runs as the Run button would', async () => {
    const o = await open();
    const { page } = o;
    await word(page, 'Ready');
    await setAttr(page, 'autorun', '');
    await word(page, 'Finished');
    expect(await page.locator('[data-testid="status-step"]').innerText()).toBe('GRPO · step 2 of 2');
    expect(o.errors, 'console errors').toEqual([]);
  });

  it('autorun="autorun" and faulty="faulty", as XHTML-style pages write boolean attributes, train with the faulty calculator', async () => {
    const o = await open();
    const { page } = o;
    await word(page, 'Ready');
    await setAttr(page, 'faulty', 'faulty');
    await expect.poll(() => faulty(page).isChecked()).toBe(true);
    await setAttr(page, 'autorun', 'autorun');
    await finished(page, 'this run: faulty');
    expect(await page.locator('[data-testid="status-step"]').innerText()).toBe('GRPO · step 2 of 2');
    expect(o.errors, 'console errors').toEqual([]);
  });

  it('autorun="false" starts nothing: the one start the worker hears is the reader’s Step', async () => {
    const o = await open();
    const { page } = o;
    // A fresh element written with autorun="false"; every start its page posts to the worker is
    // recorded (the message's `begin`: a Step's start says 'stepping', an autorun's says nothing).
    await page.evaluate(() => {
      const starts: string[] = [];
      Object.assign(window, { starts });
      const post = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker['postMessage']>) {
        const m = args[0] as { type?: string; begin?: string };
        if (m?.type === 'start') starts.push(m.begin ?? 'run');
        post.apply(this, args);
      } as Worker['postMessage'];
      const element = document.createElement('plate-multi-turn-rl');
      for (const [n, v] of [
        ['id', 'plate'],
        ['steps', '2'],
        ['backend', 'wasm'],
        ['autorun', 'false'],
        ['faulty', 'faulty'],
      ])
        element.setAttribute(n!, v!);
      document.getElementById('plate')!.replaceWith(element);
    });
    await word(page, 'Ready');
    expect(await faulty(page).isChecked()).toBe(true);
    // An autorun would have posted its start as the plate became ready, before this click.
    await page.getByRole('button', { name: 'Step', exact: true }).click();
    await word(page, 'Paused');
    expect(await page.evaluate(() => (window as unknown as { starts: string[] }).starts)).toEqual(['stepping']);
    expect(o.errors, 'console errors').toEqual([]);
  });

  it('a changed backend needs a new trainer: the plate says so, and the reader’s settings stay', async () => {
    const o = await open();
    const { page } = o;
    await word(page, 'Ready');
    expect(await page.locator('.status-backend strong').innerText()).toBe('WebAssembly');
    // The reader's own choices, made with the controls (before a run they wait for Run).
    await openPart(page, 'terms');
    await temperature(page).selectOption('0.5');
    await faulty(page).check();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await finished(page, 'this run: faulty, temperature 0.5');

    await setAttr(page, 'backend', 'cpu');
    const note = page.locator('.status-note', { hasText: 'needs a new trainer' });
    await note.waitFor({ timeout: 60_000 });
    expect(await note.innerText()).toBe(
      'The host page changed the backend to cpu: that needs a new trainer, which is starting now. Your settings stay as they were; the runs so far are no longer on the charts.',
    );
    await word(page, 'Ready');
    expect(await page.locator('.status-backend strong').innerText()).toBe('plain JavaScript (CPU)');
    expect(await temperature(page).inputValue()).toBe('0.5');
    expect(await faulty(page).isChecked()).toBe(true);
    expect(o.errors, 'console errors').toEqual([]);
  });

  it('a bad attribute set later is named in the status line, and the plate goes on', async () => {
    const o = await open();
    const { page } = o;
    await word(page, 'Ready');
    await setAttr(page, 'steps', '100');
    await setAttr(page, 'worker-url', 'https://cdn.example/plate-worker.js');
    // React renders the element's new props on its own schedule: wait for them.
    await expect
      .poll(() => page.locator('.status-note').allInnerTexts())
      .toEqual([
        'Ignored steps="100": expected a whole number from 1 to 40.',
        `Ignored worker-url="https://cdn.example/plate-worker.js": expected a script from this page’s origin (${new URL(site).origin}), as browsers start no worker from another.`,
      ]);
    expect(await page.locator('.status-word').innerText()).toBe('Ready');
    expect(o.errors, 'console errors').toEqual([]);
    expect(o.foreign, 'requests to another origin').toEqual([]);
  });
});
