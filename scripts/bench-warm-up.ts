// The idle warm-up's effect in Node (rl/warm-up.ts): the workshop's 40 steps from a cold engine,
// and after the warm-up the worker runs while the reader reads, alternating, each in a fresh
// process (a process keeps its JIT's work). The browsers' side is in scripts/bench-targets.ts.
//   npx tsx scripts/bench-warm-up.ts [--pairs 2]        (one child per run: --child cold|warm)
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { intOption } from './args';
import { useBackend } from './backend';
import { median } from './bench-stats';
import { runWorkshop } from './run-workshop';
import { IdleWarmUp } from '../src/rl/warm-up';

const { values: a } = parseArgs({ options: { pairs: { type: 'string' }, child: { type: 'string' } } });

if (a.child) {
  await useBackend('wasm');
  let warmUpMs = 0;
  if (a.child === 'warm') {
    const w = new IdleWarmUp();
    while (await w.slice());
    warmUpMs = w.summary().ms;
    w.dispose();
  }
  const t0 = performance.now();
  const run = await runWorkshop({ start: 'agent', seed: 1, steps: 40 });
  const ms = run.records.slice(1).map((r) => r.timings.total);
  console.log(JSON.stringify({ warmUpMs, seconds: (performance.now() - t0) / 1000, firstStepMs: ms[0], firstTenMs: median(ms.slice(0, 10)), lastTenMs: median(ms.slice(-10)), heldOutEnd: run.heldOut.at(-1) }));
} else {
  const f = (x: number) => x.toFixed(0).padStart(4);
  for (let i = 0; i < intOption('pairs', a.pairs, 2, 1); i++) {
    for (const mode of ['cold', 'warm']) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', mode], { encoding: 'utf8' });
      const r = JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, number>;
      console.log(`${mode}: warm-up ${f(r.warmUpMs!)} ms, then 40 steps in ${r.seconds!.toFixed(2)} s; step 1 ${f(r.firstStepMs!)} ms, first/last ten ${f(r.firstTenMs!)}/${f(r.lastTenMs!)} ms; held-out at the end ${r.heldOutEnd}`);
    }
  }
}
