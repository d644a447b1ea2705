// npm run bench -- [--steps 40] [--soak 200] [--skip-browser | --node-only] [--supervised-steps 30] [--out FILE]
// Measures the workshop per phase and per backend: Node (wasm, cpu) and the headless-Chromium
// worker (wasm, webgl, webgpu where an adapter exists); supervised steps (pre-training,
// fine-tuning) and kernel counts per phase on Node's wasm; chunk sizes of the built page; the
// longest main-thread task while training; tensors and heap over a long (soak) run; the package's
// tarball and first-visit bytes against the standalone page's (scripts/bench-package.ts); issue 18's
// targets, Node, Chromium, Firefox and the PyTorch peer paired (scripts/bench-targets.ts). Prints a
// table and writes the same figures as JSON. Figures, not pass/fail: nothing here is a test.
// --node-only: Node's wasm backend only (no cpu backend, no browser, no build), written to
// bench/node-results.json unless --out says otherwise.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { GRPO } from '../src/config';
import { intOption } from './args';
import { benchBrowser, chunkSizes, type BrowserBench } from './bench-browser';
import { benchPackage, formatPackageBench } from './bench-package';
import { benchExplain, explainLines, type ExplainBench } from './bench-explain';
import { benchNode, type NodeBench } from './bench-node';
import { type PhaseMedians } from './bench-stats';
import { benchTargets, targetLines, type TargetsBench } from './bench-targets';
import { formatOpCounts, opCounts } from './bench-ops';
import { benchSupervised } from './bench-supervised';

const { values: a } = parseArgs({
  options: {
    steps: { type: 'string' },
    'cpu-steps': { type: 'string' },
    soak: { type: 'string' },
    'skip-browser': { type: 'boolean', default: false },
    'node-only': { type: 'boolean', default: false },
    'supervised-steps': { type: 'string' },
    out: { type: 'string' },
  },
});
const steps = intOption('steps', a.steps, GRPO.steps, 1);
const cpuSteps = intOption('cpu-steps', a['cpu-steps'], 3, 1);
const soak = intOption('soak', a.soak, 200, 0);
const supervisedSteps = intOption('supervised-steps', a['supervised-steps'], 30, 3);
const nodeOnly = a['node-only']!;
const out = a.out ?? (nodeOnly ? 'bench/node-results.json' : 'bench/results.json');
const CHECKPOINT = 'public/checkpoints/agent';

const ms = (x: number | null | undefined) => (x == null ? '—' : x.toFixed(0).padStart(6));
/** The push (the episode viewer's before/after log-probs) as a share of a step: the median of per-step shares. */
const share = (p: PhaseMedians | null | undefined) => (p?.pushShare == null || Number.isNaN(p.pushShare) ? '—' : `${(100 * p.pushShare).toFixed(1)}%`);
const machine = { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', memoryGB: Math.round(totalmem() / 2 ** 30), node: process.version };

console.log(`bench: ${steps} steps (cpu: ${cpuSteps}), machine ${machine.cpus}× ${machine.cpu}, ${machine.memoryGB} GB, Node ${machine.node}`);
const node: NodeBench[] = [await benchNode('wasm', steps)];
const supervised = await benchSupervised(supervisedSteps); // still on wasm
const kernels = await opCounts(CHECKPOINT);
if (!nodeOnly) node.push(await benchNode('cpu', cpuSteps));
let browser: BrowserBench | null = null;
if (!nodeOnly && !a['skip-browser']) browser = await benchBrowser({ steps, soak });
const chunks = nodeOnly ? null : await chunkSizes();
const pkg = nodeOnly || a['skip-browser'] ? null : await benchPackage();
const explain: ExplainBench | null = nodeOnly || a['skip-browser'] ? null : await benchExplain(steps);
// Issue 18's targets: Chromium and Firefox against Node's run above and the PyTorch peer, in this same run.
const speed: TargetsBench | null = nodeOnly || a['skip-browser'] ? null : await benchTargets({ steps, runs: 1, peer: true });

const rows: string[][] = [];
for (const n of node) {
  const p = n.phases;
  rows.push([`node ${n.backend}`, String(n.steps), ms(p.sample), ms(p.logprobs), ms(p.gradient), ms(p.evaluate), ms(p.push), share(p), ms(p.total), (n.workshopSeconds * (steps / n.steps)).toFixed(1) + (n.steps < steps ? ' (est.)' : ''), `${n.tensors.afterFirstStep}→${n.tensors.atEnd}`, `${n.heapMB.afterFirstStep.toFixed(0)}→${n.heapMB.atEnd.toFixed(0)} MB`]);
}
for (const b of browser?.backends ?? []) {
  const p = b.phases;
  rows.push([`chromium ${b.backend}`, String(b.steps), ms(p?.sample), ms(p?.logprobs), ms(p?.gradient), ms(p?.evaluate), ms(p?.push), share(p), ms(p?.total), b.error ? `(${b.error})` : b.workshopSeconds.toFixed(1) + (b.steps < steps ? ' (est.)' : ''), b.tensors ? `${b.tensors.afterFirstStep}→${b.tensors.atEnd}` : '—', b.heapMB ? `${b.heapMB.afterFirstStep.toFixed(0)}→${b.heapMB.atEnd.toFixed(0)} MB` : '—']);
}
const header = ['backend', 'steps', 'sample', 'logprobs', 'grad', 'eval', 'push', 'push %', 'step', 'workshop s', 'tensors', 'heap'];
const table = [header, ...rows];
const widths = header.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
const line = (r: string[]) => '| ' + r.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
console.log('\nmilliseconds per GRPO step (median over steps ≥ 1; eval includes the next step\'s sampling, which shares its batch; push: the log-probs before and after the update the episode viewer shows, included in step)');
console.log(line(header));
console.log('| ' + widths.map((w) => '-'.repeat(w)).join(' | ') + ' |');
for (const r of rows) console.log(line(r));
console.log(`\nsupervised steps on node wasm (median of ${supervised.steps}): pre-training ${supervised.pretrainMs.toFixed(0)} ms, fine-tuning ${supervised.sftMs.toFixed(0)} ms`);
console.log('\nkernels (node wasm; each costs some µs of bookkeeping, whatever its size)');
for (const l of formatOpCounts(kernels)) console.log('  ' + l);
if (chunks) {
  console.log(`\nchunks (gzip): main ${chunks.mainKB.toFixed(1)} KB; worker, all chunks ${chunks.workerKB.toFixed(1)} KB, on the WASM path ${chunks.workerWasmPathKB.toFixed(1)} KB (+ the .wasm, ${chunks.wasmKB.toFixed(1)} KB)`);
}
if (browser) {
  const task = (x: number) => (x > 0 ? `${x.toFixed(0)} ms` : 'none over 50 ms');
  console.log(`longest main-thread task on the plate page (wasm): while training ${task(browser.longestTaskMs.training)}; while loading ${task(browser.longestTaskMs.loading)}`);
  if (browser.soak) console.log(`soak, ${browser.soak.steps} steps on wasm: tensors ${browser.soak.tensors.join(' → ')}, worker heap ${browser.soak.heapMB.map((h) => h.toFixed(1)).join(' → ')} MB`);
  console.log(`default backend here: ${browser.defaultBackend} (${browser.defaultReason})`);
  const pl = browser.pipeline;
  if (pl) {
    const s = (x: number | undefined) => (x === undefined ? '—' : `${x.toFixed(1)} s`);
    console.log(
      `\npipeline from random weights, Chromium worker on wasm: pre-training 100 steps ${s(pl.compute.pretrain)}, fine-tuning 200 steps ${s(pl.compute.sft)}, GRPO ${steps} steps ${s(pl.compute.grpo)} (worker's timing); ` +
        `from Run to the last GRPO step ${s(pl.wall.done)} (pre-training done at ${s(pl.wall.pretrain)}, fine-tuning at ${s(pl.wall.sft)})`,
    );
    console.log(`  fine-tuned agent ${(100 * (pl.heldOut.sft ?? NaN)).toFixed(0)}% held-out, after GRPO ${(100 * pl.heldOut.end).toFixed(0)}%; tensors per stage (first → last record): ${Object.entries(pl.tensors).map(([k, [a, b]]) => `${k} ${a}→${b}`).join(', ')}`);
    console.log(`  worker heap after a default run ${pl.heapMB.afterDefault?.toFixed(1) ?? '—'} MB, after the run from random weights ${pl.heapMB.afterScratch?.toFixed(1) ?? '—'} MB; longest main-thread task during it: ${task(pl.longestTaskMs)}`);
  }
}
if (pkg) {
  console.log('');
  for (const l of formatPackageBench(pkg)) console.log(l);
}
if (explain) for (const l of explainLines(explain)) console.log(l);
if (speed) for (const l of targetLines(speed, browser?.pipeline ?? null)) console.log(l);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), machine, steps, node, supervised, kernels, browser, chunks, package: pkg, speed }, null, 1) + '\n');
console.log(`wrote ${out}`);
