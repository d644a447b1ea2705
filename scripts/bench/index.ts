// npm run bench -- <node|browser|package|explain|targets|sitting|kernels|episodes|all> [options]: the project's one bench.
// Figures, not pass/fail: nothing here is a test. Each mode prints its figures and writes them, as
// JSON, to bench/<mode>.json (git-ignored; `--out FILE` for another place).
//   node      the workshop on Node per phase (wasm, and cpu for --cpu-steps), supervised steps,
//             kernel counts per phase
//   browser   the Chromium worker per backend (wasm, webgl, webgpu where an adapter exists), the
//             built chunks' sizes, the plate page's longest main-thread task, a soak run's tensors
//             and heap, the pipeline from random weights
//   package   the tarball and what a first visit downloads, against the standalone page's
//   explain   the push's share of a step, the main thread while the reader steps and asks
//   targets   the speed targets, paired: Node, the Chromium and Firefox workers, the PyTorch peer
//   sitting   the plate page over --runs N runs (5) on one page: the page's heap after GC per run
//   kernels   the fused WebAssembly kernels against the unfused tfjs ops, paired (--pairs N, 2):
//             per phase, kernel counts, each phase against its floor, the peer; Node, Chromium, Firefox
//   episodes  a GRPO step in the one-, two- and three-call worlds, interleaved (--pairs N rounds, 3): their
//             ratios, sampling's share of a step with an instant calculator and a slow one (--tool-latency-ms 50|200, 50);
//             --faulty: with the faulty calculator
//   phone     the plate page on a 390 px touch screen with Chromium's CPU throttled (--rate N, 4) over
//             --runs N first visits (4): the longest main-thread task while it starts and while it trains
//   nojit     JavaScript without its JIT and no WebAssembly: node --jitless's workshop on cpu, the worker in
//             Chromium --js-flags=--jitless and in Firefox with its JITs and WebAssembly off; --cpu-steps N (1)
//   all       every mode above, one after another, each saved as its own file
// Options: --steps N (GRPO steps, default the plate's 40), --cpu-steps N (3), --soak N (200),
// --supervised-steps N (30), --runs N (targets: runs per page, 1; sitting: runs, 5; phone: first visits, 4), --peer FILE (targets: the
// PyTorch peer's torch_ref.py; without it the peer is skipped with a sentence), --pairs N (kernels),
// --out FILE.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { GRPO } from '../../src/config';
import { fail, intOption, main, parseOptions } from '../../src/node/args';
import { settingsGiven } from '../lib/setting-options';
import { benchBrowser, benchPipeline, browserLines, chunkSizes } from './browser';
import { benchExplain, explainLines } from './explain';
import { benchKernels, kernelsLines } from './kernels';
import { benchNodeMode, nodeLines } from './node';
import { benchEpisodes, episodesLines } from './episodes';
import { benchPackage, formatPackageBench } from './package';
import { benchPhone, phoneLines } from './phone';
import { benchNoJit, noJitLines } from './nojit';
import { benchSitting, sittingLines } from './sitting';
import { benchTargets, targetLines } from './targets';

/** --tool-latency-ms: one of the reader's setting's choices other than instant (default 50). */
const toolLatency = (text: string | undefined) => settingsGiven({ 'tool-latency-ms': text ?? '50' }).toolLatencyMs!;

const MODES = ['node', 'browser', 'package', 'explain', 'targets', 'sitting', 'kernels', 'episodes', 'phone', 'nojit'] as const;
type Mode = (typeof MODES)[number];

const { values: a, positionals } = parseOptions({
  allowPositionals: true,
  options: {
    steps: { type: 'string' },
    'cpu-steps': { type: 'string' },
    soak: { type: 'string' },
    'supervised-steps': { type: 'string' },
    runs: { type: 'string' },
    pairs: { type: 'string' },
    rate: { type: 'string' },
    'tool-latency-ms': { type: 'string' },
    faulty: { type: 'boolean', default: false },
    peer: { type: 'string' },
    out: { type: 'string' },
  },
});
const [asked = '', ...extra] = positionals;
if (extra.length > 0 || !(asked === 'all' || (MODES as readonly string[]).includes(asked))) {
  fail(`usage: npm run bench -- <${[...MODES, 'all'].join('|')}> [options] (got ${JSON.stringify(positionals.join(' '))}; scripts/bench/index.ts lists the options)`);
}
const modes: readonly Mode[] = asked === 'all' ? MODES : [asked as Mode];
if (a.out && modes.length > 1) fail('--out names one file: give it with a single mode');
const steps = intOption('steps', a.steps, GRPO.steps, 1);
const machine = { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', memoryGB: Math.round(totalmem() / 2 ** 30), node: process.version };

/** Each mode: its figures (saved) and the lines it prints. */
const run: Record<Mode, () => Promise<{ figures: unknown; lines: string[] }>> = {
  async node() {
    const figures = await benchNodeMode({ steps, cpuSteps: intOption('cpu-steps', a['cpu-steps'], 3, 1), supervisedSteps: intOption('supervised-steps', a['supervised-steps'], 30, 3) });
    return { figures, lines: nodeLines(figures, steps) };
  },
  async browser() {
    const figures = { ...(await benchBrowser({ steps, soak: intOption('soak', a.soak, 200, 0) })), chunks: await chunkSizes() };
    return { figures, lines: browserLines(figures, steps) };
  },
  async package() {
    const figures = await benchPackage();
    return { figures, lines: formatPackageBench(figures) };
  },
  async explain() {
    const figures = await benchExplain(steps);
    return { figures, lines: explainLines(figures) };
  },
  async targets() {
    const figures = { ...(await benchTargets({ steps, runs: intOption('runs', a.runs, 1, 1), peer: a.peer ?? null })), pipeline: await benchPipeline(steps) };
    return { figures, lines: targetLines(figures, figures.pipeline) };
  },
  async sitting() {
    const figures = await benchSitting({ steps, runs: intOption('runs', a.runs, 5, 2) });
    return { figures, lines: sittingLines(figures) };
  },
  async kernels() {
    const opts = { steps, pairs: intOption('pairs', a.pairs, 2, 1), supervisedSteps: intOption('supervised-steps', a['supervised-steps'], 30, 3), peer: a.peer ?? null };
    const figures = await benchKernels(opts);
    return { figures, lines: kernelsLines(figures) };
  },
  async episodes() {
    const figures = await benchEpisodes({ steps, pairs: intOption('pairs', a.pairs, 3, 1), toolLatencyMs: toolLatency(a['tool-latency-ms']), faulty: a.faulty! });
    return { figures, lines: episodesLines(figures) };
  },
  async phone() {
    const figures = await benchPhone({ steps, runs: intOption('runs', a.runs, 4, 1), rate: intOption('rate', a.rate, 4, 1) });
    return { figures, lines: phoneLines(figures) };
  },
  async nojit() {
    const figures = await benchNoJit(intOption('cpu-steps', a['cpu-steps'], 1, 1));
    return { figures, lines: noJitLines(figures) };
  },
};

await main(async () => {
  console.log(`bench ${modes.join(', ')}: ${steps} GRPO steps; machine ${machine.cpus}× ${machine.cpu}, ${machine.memoryGB} GB, Node ${machine.node}`);
  for (const mode of modes) {
    console.log(`\n— ${mode} —`);
    const { figures, lines } = await run[mode]();
    for (const l of lines) console.log(l);
    const out = a.out ?? `bench/${mode}.json`;
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), machine, steps, mode, figures }, null, 1) + '\n');
    console.log(`wrote ${out}`);
  }
});
