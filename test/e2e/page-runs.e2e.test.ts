// The plate page's runs in real headless Chromium: the whole pipeline from random weights, the
// switches that break the terms against the Node workshop, the exports, the grader and the time split.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { runWorkshop } from '../../src/node/run-workshop';
import { pct } from '../../src/ui/format';
import { useWasm } from '../tf';
import {
  chartLabel,
  expectAccessible,
  download,
  expectClean,
  inPlace,
  openPart,
  plateBrowser,
  showFigure,
  shownText,
  waitForStatus,
} from './page-helpers';
import { stepMetrics } from '../../src/rl/metrics';
import { DEFAULT_SEED, GRPO } from '../../src/config';
import { codes } from '../../src/protocol/episode-view';

const { open, openFinished } = plateBrowser();
beforeAll(() => useWasm()); // the switch tests run the Node workshop beside the page

describe('the whole pipeline in the page', () => {
  it('ends the default 40-step run where the Node workshop ends it, on the plate’s start (80%)', async () => {
    // The whole default run in one engine; Firefox runs a shorter one (firefox.e2e: a slow engine).
    const node = await runWorkshop({ seed: DEFAULT_SEED, steps: GRPO.steps });
    const o = await openFinished('index.html?autorun=1&backend=wasm');
    const { page } = o;
    expect(await chartLabel(page, 'heldOut')).toBe(`Held-out success, step 40 of 40: ${pct(node.heldOut[40]!)}`);
    expect(await chartLabel(page, 'reward')).toBe(`Mean reward, step 40 of 40: ${pct(node.meanReward[39]!)}`);
    expect(await page.getByTestId('readout').first().innerText()).toBe(`80% → ${pct(node.heldOut[40]!)}`);
    expectClean(o);
  });

  it('trains from random weights through pre-training and fine-tuning into GRPO, each stage on its own charts', async () => {
    const o = await openFinished('index.html?start=scratch&seed=1&steps=1&autorun=1', undefined, 240_000);
    const { page } = o;
    const top = (sel: string) => page.locator(sel).evaluate((e) => e.getBoundingClientRect().top);
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
    // Above the shipped agent, and said why beside the readouts: a worksheet model of its own.
    expect(await page.locator('.start-note').innerText()).toMatch(
      /^From random weights, this run pre-trains a worksheet model of its own \(seed 1\), not the shipped one \(seed 2\)/,
    );
    expect(await top('.start-note')).toBeGreaterThan(await top('.chart-sft-score'));
    expect(await top('.start-note')).toBeLessThan(await top('.chart-heldOut'));
    expectClean(o);
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
      'Fine-tuning held-out success, no run on it yet; drawn: the reference runs’ band (precomputed), the plate’s numbers',
    );
    expectClean(o);
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
    const bad = await open('index.html?masking=maybe&advantage=none&temperature=2');
    expect(await bad.page.locator('.status-note').allInnerTexts()).toEqual([
      'Ignored masking=maybe: expected on or off.',
      'Ignored advantage=none: expected one of group, raw.',
      'Ignored temperature=2: expected one of 0.5, 1, 1.5.',
    ]);
    await openPart(bad.page, 'terms'); // nothing given: the part stays folded until the reader opens it
    expect(await bad.page.getByRole('switch', { name: /masking/ }).isChecked()).toBe(true);
  });

  // Each switch by its effect: the page's curves are the Node workshop's for the same settings
  // (same code, same seed, same WASM arithmetic), and the episodes show what the setting does.
  for (const [query, settings, note, legend] of [
    ['masking=off', { masking: false }, /Observation masking is off/, 'masking off'],
    ['advantage=raw', { advantage: 'raw' }, /The advantage is the raw reward/, 'raw reward'],
    ['temperature=1.5', { temperature: 1.5 }, /Sampling at temperature 1.5/, 'temperature 1.5'],
  ] as const) {
    it(`runs a short run with ${query} that trains as the Node workshop does with it, and says what to expect`, async () => {
      const node = await runWorkshop({ seed: DEFAULT_SEED, steps: 2, ...settings });
      const o = await openFinished(`index.html?steps=2&autorun=1&${query}`);
      const { page } = o;
      expect(await chartLabel(page, 'heldOut')).toBe(`Held-out success, step 2 of 2: ${pct(node.heldOut[2]!)}`);
      expect(await chartLabel(page, 'reward')).toBe(`Mean reward, step 2 of 2: ${pct(node.meanReward[1]!)}`);
      const shown = node.records[2]!.episodes.slice(0, 8);
      await openPart(page, 'step');
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
      await openPart(page, 'behaviour');
      expect(await page.locator('.chart-copy svg[role="img"]').getAttribute('aria-label')).toMatch(
        /^Answers that copy the tool, step 2 of 2: \d+%$/,
      );
      expect(await page.locator('.chart-malformed .points circle').count()).toBe(2);
      expect(await page.locator('.figure-notes').innerText()).toMatch(note);
      expect(await page.locator('.chart-legend').first().innerText()).toContain(`this run: reliable, ${legend}`);
      expectClean(o);
    });
  }

  it('draws another seed on the page, and the next run trains with it as the Node workshop does', async () => {
    const o = await open('index.html?steps=2');
    const { page } = o;
    await showFigure(page);
    await waitForStatus(page, 'Ready');
    await openPart(page, 'start');
    await inPlace(page.getByRole('button', { name: 'Draw another seed' }));
    await page.getByRole('button', { name: 'Draw another seed' }).click();
    const seed = Number(/seed (\d+)/.exec(await page.getByTestId('seed').innerText())![1]);
    expect(await page.getByTestId('seed').innerText()).toMatch(/drawn|one of the band’s five/);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await waitForStatus(page, 'Finished');
    expect(await page.locator('.legend-seed').innerText()).toContain(`seed ${seed}`);
    const node = await runWorkshop({ seed, steps: 2 });
    expect(await chartLabel(page, 'reward')).toBe(`Mean reward, step 2 of 2: ${pct(node.meanReward[1]!)}`);
    expectClean(o);
  });

  it('runs ?updates-per-batch=4: the clip acts as in the Node workshop, and the metrics go away as JSON Lines', async () => {
    const node = await runWorkshop({ seed: DEFAULT_SEED, steps: 3, updatesPerBatch: 4 });
    const metrics = node.records.flatMap((r) => stepMetrics({ ...r, sampled: r.episodes.length }) ?? []);
    const o = await openFinished('index.html?steps=3&autorun=1&updates-per-batch=4');
    const { page } = o;
    expect(await page.getByLabel('Updates per batch (μ)').inputValue()).toBe('4');
    expect(await chartLabel(page, 'heldOut')).toBe(`Held-out success, step 3 of 3: ${pct(node.heldOut[3]!)}`);
    expect(await page.locator('[data-testid="clip-chart"] svg[role="img"]').getAttribute('aria-label')).toBe(
      `Clipped characters, step 3 of 3: ${pct(metrics[2]!['clip_ratio/region_mean'])}`,
    );
    expect(await page.locator('[data-testid="clip-words"]').count()).toBe(0);
    expect(await page.locator('.figure-notes').innerText()).toMatch(/Each sampled batch is used for 4 updates/);
    expect(await page.locator('.chart-legend').first().innerText()).toContain('this run: reliable, μ = 4');
    const { file, text } = await download(page, /the GRPO metrics as JSON Lines/);
    expect(file).toBe(`plate-XXVI.3-run-agent-reliable-mu4-seed-${DEFAULT_SEED}.metrics.jsonl`);
    const lines = text.trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual(metrics);
    expect(metrics.some((m) => m['clip_ratio/region_mean'] > 0)).toBe(true);
    expectClean(o);
  });

  it('runs ?episode=three-calls: the three-call agent trains as in the Node workshop, its three calls told apart, the plate’s marks left off', async () => {
    const node = await runWorkshop({ seed: DEFAULT_SEED, steps: 3, episode: 'three-calls' });
    const o = await openFinished('index.html?episode=three-calls&steps=3&autorun=1');
    const { page } = o;
    expect(await page.getByRole('radio', { name: /three calls/ }).isChecked()).toBe(true);
    expect(await chartLabel(page, 'heldOut')).toBe(`Held-out success, step 3 of 3: ${pct(node.heldOut[3]!)}`);
    expect(await chartLabel(page, 'reward')).toBe(`Mean reward, step 3 of 3: ${pct(node.meanReward[2]!)}`);
    expect(await page.locator('.chart-legend').first().innerText()).toContain('this run: three calls, reliable');
    // The plate's numbers are its agent's on one-call sums: no mark, no readout of them here.
    expect(await page.locator('.chart-heldOut .marker, .chart-reward .marker, .readout-plate').count()).toBe(0);
    // The viewer's episodes, character by character: the group whose first episode played all three
    await openPart(page, 'step');
    // calls (the Node run's step 3 says which), each prompt of four terms, every call answered by the
    // environment, its characters told apart from the model's as the trainer recorded them.
    const episodes = node.records[3]!.episodes;
    const size = GRPO.episodesPerSum;
    const group = Array.from({ length: episodes.length / size }, (_, g) => g).find(
      (g) => episodes[g * size]!.results.length === 3,
    )!;
    await inPlace(page.getByRole('button', { name: 'Next group' }));
    for (let g = 0; g < group; g++) await page.getByRole('button', { name: 'Next group' }).click();
    const drawn = await page
      .locator('.episode-table .transcript')
      .first()
      .evaluate((c) => {
        const spans = [...c.querySelectorAll('span[class*="by-"]')];
        const who = spans.map((e) => /by-([pme])/.exec(e.className)![1]!.repeat(e.textContent!.length)).join('');
        return { text: spans.map((e) => e.textContent).join(''), who };
      });
    const first = episodes[group * size]!;
    expect(drawn).toEqual({ text: first.text, who: codes(first.authors) });
    expect(drawn.text).toMatch(/^\^\d+\+\d+\+\d+\+\d+=/);
    expect(first.results).toHaveLength(3);
    expect(drawn.who.match(/e+/g)).toHaveLength(3);
    const mean = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
    const pushed = mean(node.records.slice(1).map((r) => r.correctCallsPushedDown!));
    expect(
      await page.locator('[data-testid="claim-chart-pushedDown"] svg[role="img"]').getAttribute('aria-label'),
    ).toContain(`your runs (a mean over the GRPO steps so far): three calls ${pct(pushed)} over 3 steps`);
    expect(await shownText(page.getByTestId('episode-note'))).toMatch(
      /^Three calls: the difficulties grow with the episode/,
    );
    const claims = page.getByTestId('claims');
    await claims.locator('tr[data-claim="reward"] .claim-ref').filter({ hasText: /%/ }).first().waitFor(); // the file is in
    expect(await claims.locator('caption').innerText()).toMatch(/from your runs with it\. Every figure/);
    expect(await claims.locator('tr[data-claim="reward"] td[data-length="three calls"] .claim-yours').innerText()).toBe(
      `you ${pct(mean(node.meanReward))}`,
    );
    expectClean(o);
  });

  it('runs ?episode=one-call&agent=three-calls: the three-call agent on one-call sums as in the Node workshop, its flat groups split in the export, no plate marks', async () => {
    const node = await runWorkshop({ seed: DEFAULT_SEED, steps: 3, episode: 'one-call', agent: 'three-calls' });
    const o = await openFinished('index.html?episode=one-call&agent=three-calls&steps=3&autorun=1');
    const { page } = o;
    expect(await page.getByRole('radio', { name: /^the three-call agent/ }).isChecked()).toBe(true);
    expect(await chartLabel(page, 'heldOut')).toBe(`Held-out success, step 3 of 3: ${pct(node.heldOut[3]!)}`);
    expect(await chartLabel(page, 'reward')).toBe(`Mean reward, step 3 of 3: ${pct(node.meanReward[2]!)}`);
    expect(node.heldOut[0]).toBeCloseTo(17 / 30, 10); // the three-call agent, not the plate's (24 of 30)
    expect(await page.locator('.chart-legend').first().innerText()).toContain(
      'this run: the three-call agent, reliable',
    );
    expect(await page.locator('.chart-heldOut .marker, .chart-reward .marker, .readout-plate').count()).toBe(0);
    expect(await shownText(page.getByTestId('episode-note'))).toMatch(/^The three-call agent on one-call sums/);
    const allFail = node.records.slice(1).reduce((sum, r) => sum + r.allFailGroups!, 0) / 3;
    expect(
      await page.locator('[data-testid="claim-chart-allFail"] svg[role="img"]').getAttribute('aria-label'),
    ).toContain(`your runs (a mean over the GRPO steps so far): one call ${pct(allFail)} over 3 steps`);
    const { file, text } = await download(page, /the GRPO metrics as JSON Lines/);
    expect(file).toBe(`plate-XXVI.3-run-three-call-agent-agent-reliable-seed-${DEFAULT_SEED}.metrics.jsonl`);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((m) => [m['frac_reward_zero_std/all_fail'], m['frac_reward_zero_std/all_pass']])).toEqual(
      node.records.slice(1).map((r) => [r.allFailGroups, r.allPassGroups]),
    );
    expectClean(o);
  });

  it('lets the reader take the run away as JSON and CSV, with a link that sets it up again', async () => {
    const o = await openFinished('index.html?steps=2&autorun=1&masking=off&seed=3');
    const { page } = o;
    const json = await download(page, /the run as JSON/);
    expect(json.file).toBe('plate-XXVI.3-run-agent-reliable-masking-off-seed-3.json');
    const run = JSON.parse(json.text);
    expect(run).toMatchObject({
      format: 'multi-turn-rl-run/1',
      plate: 'XXVI.3',
      config: { masking: false, seed: 3, steps: 2, advantage: 'group' },
    });
    expect(run.grpo.map((r: { step: number }) => r.step)).toEqual([0, 1, 2]);
    expect(run.episodes.episodes).toHaveLength(64);
    const csv = await download(page, /the curves as CSV/);
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
  });
});

describe('the grader, true success and where a step’s time goes', () => {
  const grader = (page: Page) => page.getByRole('combobox', { name: /grader/i });
  /** The reward chart's last value and its true success's, as the chart's label and description say them. */
  async function rewardAndTruth(page: Page): Promise<{ reward: number; truth: number }> {
    const svg = page.locator('.chart-reward svg[role="img"]');
    const reward = /: (\d+)%$/.exec((await svg.getAttribute('aria-label'))!)![1]!;
    // Described by the chart's caption, then by its companion's latest point.
    const companion = (await svg.getAttribute('aria-describedby'))!.split(' ').at(-1);
    const description = await page.locator(`[id="${companion}"]`).textContent();
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
    const bad = await open('index.html?grader=lenient');
    expect(await bad.page.locator('.status-note').allInnerTexts()).toEqual([
      'Ignored grader=lenient: expected one of exact, crash-pass, trusts-tool.',
    ]);
    await openPart(bad.page, 'terms');
    expect(await grader(bad.page).inputValue()).toBe('exact');
  });

  it('runs with a crash counted as a pass: the reward parts from true success, the bug’s rewards are marked, the note says why; the exact grader brings them together again', async () => {
    const o = await openFinished('index.html?steps=3&autorun=1&grader=crash-pass');
    const { page } = o;
    expect(await page.locator('.chart-legend').first().innerText()).toContain(
      'this run: reliable, a crash counts as a pass',
    );
    expect(await page.locator('.chart-reward .companion rect').count()).toBe(3);
    const bug = await rewardAndTruth(page);
    expect(bug.reward).toBeGreaterThan(bug.truth); // the malformed episodes are paid
    expect(await page.getByTestId('readout-companion').innerText()).toMatch(/^true success: \d+% → \d+%$/);
    await openPart(page, 'step');
    expect(await shownText(page.locator('.graded-by'))).toMatch(
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
      if (g === 0) await inPlace(page.getByRole('button', { name: 'Next group' }));
      if (g < 7) await page.getByRole('button', { name: 'Next group' }).click();
    }
    expect(seen).toBe(marked);
    await expectAccessible(page);

    await grader(page).selectOption('exact');
    await page.getByRole('button', { name: 'Run', exact: true }).click(); // after a finished run, a setting waits for Run
    await page.waitForFunction(
      () =>
        document.querySelector('.chart-legend')?.textContent?.includes('this run: reliable') &&
        !document.querySelector('.chart-legend')?.textContent?.includes('this run: reliable, a crash'),
      null,
      { timeout: 30_000 },
    );
    await waitForStatus(page, 'Finished');
    expect(await page.locator('.chart-legend').first().innerText()).toContain(
      'earlier run: reliable, a crash counts as a pass',
    );
    const exact = await rewardAndTruth(page);
    expect(exact.truth).toBe(exact.reward);
    expect(await shownText(page.locator('.graded-by'))).toMatch(/^Graded by the exact answer/);
    expect(await page.locator('.episode-table .bug-note').count()).toBe(0);
    expect(await page.locator('.figure-notes').count()).toBe(0);
    expectClean(o);
  }, 240_000);

  it('says where each step’s time goes under the curves, for the run on the charts', async () => {
    const o = await openFinished('index.html?steps=3&autorun=1&grader=trusts-tool&faulty=1');
    const { page } = o;
    const part = await openPart(page, 'time');
    expect(await part.locator('summary').innerText()).toMatch(/sampling \d+ ms \(\d+%\) · policy update/);
    const split = page.locator('.time-split');
    expect(await split.locator('.time-bar').count()).toBe(3);
    expect(await split.locator('svg[role="img"]').getAttribute('aria-label')).toMatch(
      /^Time per GRPO step, step 3: sampling \d+ ms, policy update \d+ ms, held-out evaluation \d+ ms$/,
    );
    expect(await shownText(page.getByTestId('time-split-readout'))).toMatch(
      /^sampling \d+ ms \(\d+%\) · policy update \d+ ms \(\d+%\) · held-out evaluation \d+ ms \(\d+%\)$/,
    );
    expect(await split.locator('.time-sentence').innerText()).toMatch(
      /sampling episodes becomes the dominant cost of training/,
    );
    expect(await split.locator('.time-note').innerText()).toContain('split between them by rows');
    const yTicks = () => split.locator('.axis-y .tick text').allTextContents();
    expect((await yTicks()).length).toBeGreaterThan(0);
    for (const t of await yTicks()) expect(t).toMatch(/^[\d,.]+ ms$/);
    // The export carries each step's split and the grader that paid it.
    const { file, text } = await download(page, /the run as JSON/);
    expect(file).toBe(`plate-XXVI.3-run-agent-faulty-trusts-tool-seed-${DEFAULT_SEED}.json`);
    const run = JSON.parse(text);
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
    // With no step timed there is nothing true to draw: no chart, no axis of made-up milliseconds; words instead.
    expect(await split.locator('svg').count()).toBe(0);
    expect(await split.innerText()).toMatch(/appears here as the run goes/);
    expectClean(o);
  });
});
