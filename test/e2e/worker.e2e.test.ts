// The training worker in real headless Chromium (the harness, a built copy served under a
// sub-path): the step stream, reset/configure through the hook, a dying worker, broken
// checkpoints, the tensor count, and the same numbers as the Node workshop. Per-step times are
// printed. The backends have their own file (backends.e2e.test.ts), with pause and resume through
// the hook on the CPU backend, whose steps take long enough to see "pausing".
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type WorkerEvent } from '../../src/protocol/messages';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import { consistent, harnessBrowser } from './worker-helpers';

const ROOT = resolve(import.meta.dirname, '../..');
const { site, browser, ready, note } = harnessBrowser();

describe('the training worker, through the useTrainingWorker hook', () => {
  it('streams a short run step by step with values consistent with their episodes, then a summary', async () => {
    const h = await ready();
    await h.start({ steps: 3 });
    const s = await h.until((t) => t.status === 'done');
    expect(s.run!.steps).toHaveLength(4);
    s.run!.steps.forEach(consistent);
    expect(s.run!.summary!.heldOutEnd).toBe(s.run!.steps[3]!.heldOut);
    expect(s.stepsPerSecond).toBeGreaterThan(0);
    note('wasm', s.run!.steps);
  });

  it('starts again from step 0 after a reset, which drops the stopped run', async () => {
    const h = await ready();
    await h.start({ steps: 40 });
    const before = await h.until((t) => (t.run?.steps.length ?? 0) >= 3);
    await h.call('reset');
    const reset = await h.until((t) => t.status === 'ready' && t.run === null);
    expect(reset.previous).toEqual([]);
    await h.start({ steps: 40 });
    const again = await h.until((t) => (t.run?.steps.length ?? 0) >= 2);
    expect(again.run!.steps[0]!.step).toBe(0);
    // The same checkpoint and seed give the same first steps.
    expect(again.run!.steps[1]!.meanReward).toBe(before.run!.steps[1]!.meanReward);
  });

  it('on Run after a finished run, restarts GRPO with the faulty calculator from the same agent, and keeps the finished run', async () => {
    const h = await ready();
    await h.start({ seed: 3, steps: 2 });
    await h.until((t) => t.status === 'done');
    await h.start({ faulty: true, seed: 3, steps: 2 });
    const s = await h.until((t) => t.status === 'done' && t.run!.config.faulty);
    expect(s.run!.config).toEqual({ seed: 3, steps: 2, ...PLATE_SETTINGS, faulty: true });
    expect(s.run!.from).toBe(s.previous.at(-1)!.runId);
    expect(s.run!.steps[0]!.heldOut).toBe(s.previous.at(-1)!.steps[0]!.heldOut);
    expect(s.previous.at(-1)!.end).toBe('done');
    expect(s.previous.at(-1)!.config.faulty).toBe(false);
    expect(s.run!.steps.slice(1).some((r) => r.lies > 0)).toBe(true);
  });

  it('reports a worker that dies with an error, and restartWorker brings up a fresh one', async () => {
    const h = await ready();
    const [worker] = h.page.workers();
    await worker!.evaluate(() =>
      setTimeout(() => {
        throw new Error('boom');
      }),
    );
    const dead = await h.until((t) => t.status === 'dead');
    expect(dead.error!.kind).toBe('worker');
    expect(dead.error!.message).toMatch(/boom/);
    await h.call('restartWorker');
    await h.until((t) => t.status === 'ready');
  });

  it('notices a worker that stops mid-run without an error, within seconds', async () => {
    const h = await ready();
    await h.start({ steps: 40 });
    await h.until((t) => (t.run?.steps.length ?? 0) >= 3);
    const [worker] = h.page.workers();
    const t0 = Date.now();
    void worker!.evaluate(() => self.close()).catch(() => {}); // gone: no error event, no more messages
    // The silence allowed is five times the longest recent gap between its messages, at least 4 s:
    // about 5 s on a quiet machine, up to twice that on one twice as slow; far under the 30 s a
    // worker that has not yet timed a step is allowed.
    const dead = await h.until((t) => t.status === 'dead', 60_000);
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(dead.error!.message).toMatch(/sent nothing for \d+ s/);
    expect(dead.run!.steps.length).toBeGreaterThanOrEqual(3);
    await h.call('restartWorker');
    await h.until((t) => t.status === 'ready');
    await h.start({ steps: 1 });
    await h.until((t) => t.status === 'done');
  });
});

describe('a broken checkpoint', () => {
  const cases: [string, string, RegExp][] = [
    [
      'a truncated weights.bin',
      'truncated',
      /broken\/truncated\/weights\.bin: has 1000 bytes, the manifest needs \d+ \(truncated\)/,
    ],
    ['a manifest that is not JSON', 'bad-json', /broken\/bad-json\/manifest\.json: is not valid JSON/],
    [
      'a weight of the wrong shape',
      'wrong-shape',
      /broken\/wrong-shape\/manifest\.json: weight "wte" has shape \[16,32\]/,
    ],
    ['a missing weights.bin', 'no-weights', /broken\/no-weights\/weights\.bin: is missing \(HTTP 404\)/],
    ['a missing folder', 'nowhere', /broken\/nowhere\/manifest\.json: is missing \(HTTP 404\)/],
  ];
  it.each(cases)('with %s gives a checkpoint error naming the file', async (_, folder, message) => {
    const h = await ready(`?checkpoint=broken/${folder}/`);
    const s = await h.state();
    expect(s.status).toBe('error');
    expect(s.error!.kind).toBe('checkpoint');
    expect(s.error!.message).toMatch(message);
  });

  it('whose loss overflows stops the run at step 1 with a non-finite-loss error, keeping step 0', async () => {
    const h = await ready('?checkpoint=broken/overflowing/');
    await h.start({ steps: 3 });
    const s = await h.until((t) => t.status === 'error');
    expect(s.error!.kind).toBe('non-finite-loss');
    expect(s.error!.message).toMatch(/NaN at step 1/);
    expect(s.run!.steps.map((r) => r.step)).toEqual([0]);
    expect(s.run!.end).toBe('error');
  });
});

describe('a worker driven by raw messages', () => {
  const config = { seed: 5, steps: 4, ...PLATE_SETTINGS, faulty: true };
  let events: WorkerEvent[] = [];
  let warnings: string[] = [];

  beforeAll(async () => {
    const page = await browser().newPage();
    // Listen on the page, not on the worker once it appears: the worker's console is only sent to a
    // listener once it subscribes, and a worker that starts quickly warns before that (a red CI run).
    page.on('console', (m) => m.worker() && m.type() === 'warning' && warnings.push(m.text()));
    await page.goto(site + '?backend=wasm');
    await page.evaluate(() => window.startRaw());
    // Garbage first: none of it may stop the worker from serving the real commands after it.
    await page.evaluate(() => {
      const w = window.raw!.worker;
      for (const m of [
        42,
        null,
        'start',
        { type: 'explode' },
        { type: 'start' },
        { type: 'start', config: { faulty: 'yes', seed: 1, steps: 3 } },
      ])
        w.postMessage(m);
    });
    await page.evaluate((c) => {
      const w = window.raw!.worker;
      const folder = (p: string) => new URL(p, document.baseURI).href;
      w.postMessage({
        type: 'init',
        checkpoints: {
          agent: folder('checkpoints/agent/'),
          pretrained: folder('checkpoints/pretrained/'),
          agentThreeCalls: folder('checkpoints/agent-three-calls/'),
        },
        wasm: window.wasm,
        backend: 'wasm',
      });
      w.postMessage({ type: 'start', config: c });
      // Pause after step 1 and resume once paused: nothing may stream in between.
      w.addEventListener('message', (e: MessageEvent<{ type: string; stage?: string; record?: { step: number } }>) => {
        if (e.data.type === 'step' && e.data.record!.step === 1) w.postMessage({ type: 'pause' });
        if (e.data.type === 'paused') w.postMessage({ type: 'resume' });
      });
    }, config);
    await page.waitForFunction(
      () => window.raw!.events.some((e) => e.type === 'done' || e.type === 'error'),
      undefined,
      { timeout: 60_000 },
    );
    events = (await page.evaluate(() => window.raw!.events)).filter((e) => e.type !== 'alive');
    warnings = [...warnings];
    await page.close();
  });

  it('ignores malformed and unknown commands with a console warning', () => {
    expect(warnings.filter((w) => w.includes('ignored a malformed or unknown command'))).toHaveLength(6);
    const types = events.map((e) => e.type);
    expect(types.slice(0, 4)).toEqual(['loading', 'loading', 'ready', 'started']);
    expect(types.filter((t) => t === 'step')).toHaveLength(config.steps + 1);
    expect(types.at(-1)).toBe('done');
  });

  it('streams nothing between paused and resumed, whenever the pause lands', () => {
    const types = events.map((e) => e.type);
    const paused = types.indexOf('paused');
    expect(paused).toBeGreaterThan(types.indexOf('step')); // honoured after a step, never before step 0
    expect(types[paused + 1]).toBe('resumed');
    const steps = events.flatMap((e) => (e.type === 'step' ? [e.record.step] : []));
    expect(steps).toEqual([0, 1, 2, 3, 4]);
  });

  it('keeps tf.memory().numTensors flat across steps once the optimiser is warm', () => {
    const counts = events.flatMap((e) => (e.type === 'step' ? [e.memory.numTensors] : []));
    expect(counts).toHaveLength(config.steps + 1);
    // Step 1 creates Adam's moment variables; from then on every step leaves as many tensors.
    expect(counts.slice(1)).toEqual(Array<number>(config.steps).fill(counts[1]!));
  });

  it('gives the same held-out success and mean reward per step as the Node workshop on WASM', () => {
    const out = execFileSync(
      'npx',
      [
        'tsx',
        'scripts/workshop.ts',
        '--json',
        '--backend',
        'wasm',
        '--faulty',
        '--seed',
        String(config.seed),
        '--steps',
        String(config.steps),
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const node = JSON.parse(out.trim().split('\n').at(-1)!) as { heldOut: number[]; meanReward: number[] };
    const steps = events.flatMap((e) => (e.type === 'step' && e.stage === 'grpo' ? [e.record] : []));
    expect(steps.map((r) => r.heldOut)).toEqual(node.heldOut);
    expect(steps.slice(1).map((r) => r.meanReward)).toEqual(node.meanReward);
  });
});
