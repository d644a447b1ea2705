// What the training-worker browser files share: one Chromium per file, the harness page opened
// ready, each step checked against its own parts, and the per-step times printed at the end.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { GRPO } from '../../src/config';
import { batchAdvantages } from '../../src/rl/advantages';
import type { BackendName } from '../../src/protocol/backends';
import type { GrpoStepView } from '../../src/protocol/episode-view';
import { launch, openHarness, pageReuser, type Harness } from '../browser/chromium';

/** Registers the file's browser; `ready` opens the harness and waits for the worker to be ready (or to fail). */
export function harnessBrowser() {
  const site = inject('siteUrl');
  let browser: Browser;
  let reuse: ReturnType<typeof pageReuser>;
  const stepMs: Partial<Record<BackendName, number[]>> = {};
  beforeAll(async () => {
    browser = await launch();
    reuse = pageReuser(browser);
  });
  afterAll(async () => {
    await browser?.close();
    const line = Object.entries(stepMs).map(([b, ms]) => `${b} ${ms.map((m) => m.toFixed(0)).join('/')} ms`);
    if (line.length) console.log(`per-step time in the Chromium worker (steps ≥ 1): ${line.join('; ')}`);
  });
  return {
    site,
    browser: () => browser,
    async ready(query = ''): Promise<Harness> {
      const h = await openHarness(await reuse(), site, query);
      // ?calibrate=all races each software GPU's first forward pass: 41 s once on a busy machine.
      await h.until((s) => s.status !== 'loading', 180_000);
      return h;
    },
    /** Keeps a run's per-step times for the line printed at the end. */
    note: (backend: BackendName, steps: GrpoStepView[]) =>
      (stepMs[backend] = steps.filter((r) => r.step > 0).map((r) => r.timings.total)),
  };
}

/**
 * A step as it crossed from the worker, checked against its own parts: the counts against its
 * episodes, the reward against their rewards, each group's advantages against the group-relative
 * formula, and the loss against −Σ advantage · trained characters / all trained characters (with
 * one update per batch the ratio is 1). A worker that trained with other settings, dropped a term
 * or garbled a record fails here, whatever backend computed it.
 */
export function consistent(r: GrpoStepView, i: number): void {
  expect(r.step).toBe(i);
  expect(r.heldOutCorrect / r.heldOutN).toBeCloseTo(r.heldOut, 10);
  if (i === 0) {
    expect(r.meanReward).toBeNull();
    return expect(r.episodes).toEqual([]);
  }
  const eps = r.episodes;
  expect(eps).toHaveLength(GRPO.sumsPerStep * GRPO.episodesPerSum);
  expect(r.meanReward).toBeCloseTo(eps.reduce((t, e) => t + e.reward, 0) / eps.length, 10);
  const count = (test: (e: (typeof eps)[number]) => boolean) => eps.filter(test).length;
  const chars = (code: string, of: string) =>
    eps.reduce((n, e) => n + [...(of === 'trained' ? e.trained : e.authors)].filter((c) => c === code).length, 0);
  expect([r.modelChars, r.envChars, r.trainedChars]).toEqual([
    chars('m', 'authors'),
    chars('e', 'authors'),
    chars('1', 'trained'),
  ]);
  expect([r.lies, r.malformed]).toEqual([count((e) => e.lied), count((e) => e.reason !== 'answered')]);
  const expected = batchAdvantages(
    eps.map((e) => e.reward),
    GRPO.episodesPerSum,
    GRPO,
  );
  eps.forEach((e, k) => expect(e.advantage).toBeCloseTo(expected[k]!, 5));
  const pushed = eps.reduce((t, e) => t + e.advantage * [...e.trained].filter((c) => c === '1').length, 0);
  expect(r.loss).toBeCloseTo(-pushed / r.trainedChars, 4);
  expect(r.timings.total).toBeGreaterThan(0);
}
