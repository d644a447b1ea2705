// The idle warm-up's effect (rl/warm-up.ts): 40 GRPO steps from a cold engine, and after the
// warm-up the worker runs while the reader reads, alternating cold and warm in pairs, each in a
// fresh process (Node) or a fresh page (Chromium, Firefox: the harness, as scripts/bench-targets.ts
// drives it), because a process keeps its JIT's work. This machine's speed drifts within minutes,
// so only pairs run back to back say anything.
//   npx tsx scripts/bench-warm-up.ts [--pairs 4] [--browsers]     (Node's runs: --child cold|warm)
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { intOption } from './args';
import { useBackend } from './backend';
import { median } from './bench-stats';
import { runWorkshop } from './run-workshop';
import { IdleWarmUp } from '../src/rl/warm-up';

const { values: a } = parseArgs({ options: { pairs: { type: 'string' }, child: { type: 'string' }, browsers: { type: 'boolean', default: false } } });
const pairs = intOption('pairs', a.pairs, 4, 1);
const f = (x: number) => x.toFixed(0).padStart(4);

if (a.child) {
  await useBackend('wasm');
  let warmUpMs = 0;
  let slices: number[] = [];
  if (a.child === 'warm') {
    const w = new IdleWarmUp();
    while (await w.slice());
    ({ ms: warmUpMs, slices } = w.summary());
    w.dispose();
  }
  const t0 = performance.now();
  const run = await runWorkshop({ start: 'agent', seed: 1, steps: 40 });
  const ms = run.records.slice(1).map((r) => r.timings.total);
  console.log(JSON.stringify({ warmUpMs, slices, seconds: (performance.now() - t0) / 1000, firstStepMs: ms[0], firstTenMs: median(ms.slice(0, 10)), lastTenMs: median(ms.slice(-10)), heldOutEnd: run.heldOut.at(-1) }));
} else if (a.browsers) {
  await browsers();
} else {
  for (let i = 0; i < pairs; i++) {
    for (const mode of ['cold', 'warm']) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', mode], { encoding: 'utf8' });
      const r = JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, number> & { slices: number[] };
      const slices = r.slices.length > 0 ? ` (slices ${r.slices.map((x) => x.toFixed(0)).join(' ')})` : '';
      console.log(`${mode}: warm-up ${f(r.warmUpMs!)} ms${slices}, then 40 steps in ${r.seconds!.toFixed(2)} s; step 1 ${f(r.firstStepMs!)} ms, first/last ten ${f(r.firstTenMs!)}/${f(r.lastTenMs!)} ms; held-out at the end ${r.heldOutEnd}`);
    }
  }
}

/** The same pairs in the training worker: Chromium, then Firefox, on one build of the harness. */
async function browsers(): Promise<void> {
  const { launch } = await import('./browser/chromium');
  const { launchFirefox } = await import('./browser/firefox');
  const { buildSite, removeSite, serve } = await import('./browser/site');
  const { chromiumPage, firefoxPage, stepping } = await import('./bench-targets');
  const dir = await buildSite();
  const site = await serve(dir);
  try {
    for (const [engine, start] of [['chromium', launch], ['firefox', launchFirefox]] as const) {
      const browser = await start();
      const open = () => (engine === 'chromium' ? chromiumPage(browser as Awaited<ReturnType<typeof launch>>) : firefoxPage(browser as Awaited<ReturnType<typeof launchFirefox>>));
      try {
        for (let i = 0; i < pairs; i++) {
          for (const readFirst of [false, true]) {
            const page = await open();
            try {
              const r = await stepping(page, site.url, 40, 1, readFirst);
              console.log(`${engine.padEnd(8)} ${readFirst ? 'warm' : 'cold'}: warm-up ${f(readFirst ? r.warmUpMs : 0)} ms, then 40 steps in ${r.steppingSeconds[0]!.toFixed(2)} s (first point → end); step 1 ${f(r.stepMs[0]!)} ms, first/last ten ${f(r.firstTenMs)}/${f(r.lastTenMs)} ms`);
            } finally {
              await page.close();
            }
          }
        }
      } finally {
        await browser.close();
      }
    }
  } finally {
    site.server.close();
    removeSite(dir);
  }
}
