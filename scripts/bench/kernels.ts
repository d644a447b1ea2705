// `npm run bench -- kernels`: the fused WebAssembly kernels (src/model/fused/) against the unfused
// tfjs ops they replace, paired in one run by the runtime switch (the same values bit for bit,
// so the same steps): Node's workshop, supervised steps and kernel counts; each phase against its
// floor (its matmul FLOPs at the matmul rate measured here, now); the training worker in Chromium
// and Firefox (the harness's ?kernels=); the PyTorch CPU peer (--peer FILE). Pairs alternate
// which path goes first, so a machine whose load drifts favours neither.
import * as tf from '@tensorflow/tfjs';
import { GRPO } from '../../src/config';
import { reliableCalculator } from '../../src/env/calculator';
import { SPLIT, type Sum } from '../../src/env/sums';
import { createRng, shuffled } from '../../src/lib/rng';
import { adam } from '../../src/model/adam';
import { transcriptLogProbs } from '../../src/model/logprobs';
import { fusedModule, setFused } from '../../src/model/fused/module';
import type { KernelsMode } from '../../src/protocol/backends';
import { batchAdvantages } from '../../src/rl/advantages';
import { evaluationRows } from '../../src/rl/evaluate';
import { rolloutRows } from '../../src/rl/rollout';
import { policyUpdate, updateRows } from '../../src/rl/update';
import { setNodeBackend } from '../lib/node-backend';
import { launch } from '../../test/browser/chromium';
import { launchFirefox } from '../../test/browser/firefox';
import { buildPage } from '../../test/browser/page-site';
import { buildSite, serve, stopServing } from '../../test/browser/site';
import { loadCheckpoint, SHIPPED } from '../../src/node/checkpoint-fs';
import { benchNode, type NodeBench } from './node';
import { opCounts, type OpCounts } from './ops';
import { median, type SplitMedians } from './stats';
import { benchSupervised, type SupervisedBench } from './supervised';
import { benchPeer, chromiumPage, firefoxPage, fromLoad, stepping, type AnyPage, type PeerBench } from './targets';

const PATHS: readonly KernelsMode[] = ['unfused', 'fused'];
type Paired<T> = Record<KernelsMode, T>;

interface PhaseFlops {
  /** Matmul FLOPs per GRPO step (medians over steps 1–5 from the agent), split as the records' time split is. */
  sampling: number;
  update: number;
  evaluation: number;
}

interface EngineRuns {
  engine: 'node' | 'chromium' | 'firefox';
  /** One entry per run, in the order run, each with the kernels the worker said it ran. */
  runs: { asked: KernelsMode; ran: KernelsMode | null; steppingSeconds: number; split: SplitMedians; stepMs: number }[];
  error?: string;
}

export interface KernelsBench {
  steps: number;
  pairs: number;
  engines: EngineRuns[];
  supervised: Paired<SupervisedBench>;
  kernels: Paired<OpCounts>;
  /** GFLOP/s of a 1024×64 by 64×256 matmul: the fused module's (the floors' rate) and tfjs's (XNNPACK's). */
  rate: { fused: number; xnnpack: number };
  flops: PhaseFlops;
  peer: PeerBench | null;
  /** Why the peer gave no figure, when it was asked for and failed. */
  peerError?: string;
  /** The plate page (always fused), `steps` steps from page load in Chromium (s). */
  fromLoadSeconds: number;
}

/** Both paths in turn, `pairs` times, alternating which goes first. */
async function paired<T>(pairs: number, f: (kernels: KernelsMode) => Promise<T>): Promise<{ asked: KernelsMode; result: T }[]> {
  const out: { asked: KernelsMode; result: T }[] = [];
  for (let p = 0; p < pairs; p++) {
    for (const asked of p % 2 === 0 ? PATHS : [...PATHS].reverse()) out.push({ asked, result: await f(asked) });
  }
  return out;
}

async function nodeRuns(steps: number, pairs: number): Promise<EngineRuns> {
  const runs = await paired(pairs, async (asked) => {
    setFused(asked === 'fused');
    const n: NodeBench = await benchNode('wasm', steps);
    return { ran: fusedModule() ? ('fused' as const) : ('unfused' as const), steppingSeconds: n.steppingSeconds, split: n.split, stepMs: n.phases.total };
  });
  setFused(true);
  return { engine: 'node', runs: runs.map(({ asked, result }) => ({ asked, ...result })) };
}

async function browserRuns(engine: 'chromium' | 'firefox', open: () => Promise<AnyPage>, harness: string, steps: number, pairs: number): Promise<EngineRuns> {
  console.log(`${engine}: ${pairs} pairs of ${steps} steps in the worker…`);
  try {
    const runs = await paired(pairs, async (asked) => {
      const page = await open();
      try {
        const s = await stepping(page, harness, steps, 1, false, asked);
        return { ran: s.kernels, steppingSeconds: s.steppingSeconds[0]!, split: s.split, stepMs: s.phases.total };
      } finally {
        await page.close();
      }
    });
    return { engine, runs: runs.map(({ asked, result }) => ({ asked, ...result })) };
  } catch (e) {
    return { engine, runs: [], error: (e as Error).message.split('\n')[0] };
  }
}

/** The plate page as a reader gets it (the fused kernels), `steps` steps with autorun: navigation start → "Finished" (s). */
async function fromPageLoad(open: () => Promise<AnyPage>, steps: number): Promise<number> {
  const pageDir = await buildPage();
  const { url, server } = await serve(pageDir);
  const page = await open();
  try {
    return await fromLoad(page, url, steps);
  } catch {
    return NaN;
  } finally {
    await page.close();
    await stopServing({ server, dir: pageDir });
  }
}

/** Median GFLOP/s of one matmul shape, by the fused module and by tfjs. */
function matmulRate(): { fused: number; xnnpack: number } {
  const [M, K, N] = [1024, 64, 256];
  const a = tf.randomNormal([M, K]) as tf.Tensor2D;
  const b = tf.randomNormal([K, N]) as tf.Tensor2D;
  const out = tf.zeros([M, N]);
  const m = fusedModule()!;
  const gflops = (f: () => void) => {
    const ms: number[] = [];
    for (let i = 0; i < 40; i++) {
      const t0 = performance.now();
      f();
      ms.push(performance.now() - t0);
    }
    return (2 * M * K * N) / median(ms.slice(10)) / 1e6;
  };
  try {
    return {
      fused: gflops(() => m.k.matmul(m.offset(a), m.offset(b), 0, m.offset(out), M, K, N, 0)),
      xnnpack: gflops(() => tf.matMul(a, b).dispose()),
    };
  } finally {
    tf.dispose([a, b, out]);
  }
}

/**
 * A step's matmul FLOPs by phase, as the fused kernels count them: the shared batch (30 greedy
 * held-out rows beside 64 sampled ones, split by rows as the records split its time) and the
 * update with the push's two passes, on steps 1–5 from the shipped agent.
 */
async function phaseFlops(): Promise<PhaseFlops> {
  const { model } = loadCheckpoint(SHIPPED.agent);
  const m = fusedModule()!;
  const optimizer = adam(GRPO.lr);
  const rng = createRng(1);
  const steps: PhaseFlops[] = [];
  try {
    for (let step = 1; step <= 5; step++) {
      const sums = shuffled(SPLIT.train, rng).slice(0, GRPO.sumsPerStep);
      const sampled = sums.flatMap((sum) => Array<Sum>(GRPO.episodesPerSum).fill(sum)).map((sum) => ({ sum, calculator: reliableCalculator, grader: 'exact' as const, greedy: false }));
      const held = evaluationRows(SPLIT.heldOut);
      let f0 = m.flops;
      const episodes = (await rolloutRows(model, [...held, ...sampled], { temperature: GRPO.temperature, rng })).slice(held.length);
      const batch = m.flops - f0;
      const advantages = batchAdvantages(episodes.map((e) => e.reward), GRPO.episodesPerSum, GRPO);
      const ran = new Set(updateRows(advantages));
      f0 = m.flops;
      await transcriptLogProbs(model, episodes.filter((_, i) => !ran.has(i)).map((e) => e.text), GRPO.temperature);
      await policyUpdate({ model, optimizer, episodes, advantages, config: GRPO, step });
      await transcriptLogProbs(model, episodes.map((e) => e.text), GRPO.temperature);
      const share = sampled.length / (sampled.length + held.length);
      steps.push({ sampling: batch * share, evaluation: batch * (1 - share), update: m.flops - f0 });
    }
  } finally {
    optimizer.dispose();
    model.dispose();
  }
  const of = (k: keyof PhaseFlops) => median(steps.map((s) => s[k]));
  return { sampling: of('sampling'), update: of('update'), evaluation: of('evaluation') };
}

export async function benchKernels(opts: { steps: number; pairs: number; supervisedSteps: number; peer: string | null }): Promise<KernelsBench> {
  await setNodeBackend('wasm');
  console.log(`node wasm: ${opts.pairs} pairs of ${opts.steps} steps, unfused and fused…`);
  const engines = [await nodeRuns(opts.steps, opts.pairs)];
  const supervised = {} as Paired<SupervisedBench>;
  const kernels = {} as Paired<OpCounts>;
  for (const k of PATHS) {
    setFused(k === 'fused');
    supervised[k] = await benchSupervised(opts.supervisedSteps);
    kernels[k] = await opCounts(SHIPPED.agent);
  }
  setFused(true);
  const rate = matmulRate();
  const flops = await phaseFlops();
  const dir = await buildSite();
  const { url, server } = await serve(dir);
  let fromLoadSeconds: number;
  try {
    const chromium = await launch();
    try {
      engines.push(await browserRuns('chromium', () => chromiumPage(chromium), url, opts.steps, opts.pairs));
      fromLoadSeconds = await fromPageLoad(() => chromiumPage(chromium), opts.steps);
    } finally {
      await chromium.close();
    }
    const firefox = await launchFirefox();
    engines.push(await browserRuns('firefox', () => firefoxPage(firefox), url, opts.steps, opts.pairs).finally(() => firefox.close()));
  } finally {
    await stopServing({ server, dir });
  }
  let peer: PeerBench | null = null;
  let peerError: string | undefined;
  try {
    peer = opts.peer ? await benchPeer(opts.peer) : null;
  } catch (e) {
    peerError = (e as Error).message; // the figures above are kept
  }
  return { steps: opts.steps, pairs: opts.pairs, engines, supervised, kernels, rate, flops, peer, peerError, fromLoadSeconds };
}

// ——— the report ———

const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '—');
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '—');
const f2 = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '—');

/** Medians over an engine's runs of one path. */
function pathMedians(e: EngineRuns, k: KernelsMode) {
  const runs = e.runs.filter((r) => r.asked === k);
  const of = (f: (r: EngineRuns['runs'][number]) => number) => median(runs.map(f));
  return { stepping: of((r) => r.steppingSeconds), step: of((r) => r.stepMs), sampling: of((r) => r.split.sampling), update: of((r) => r.split.update), evaluation: of((r) => r.split.evaluation) };
}

export function kernelsLines(b: KernelsBench): string[] {
  const fromLoadSeconds = Number.isFinite(b.fromLoadSeconds) ? b.fromLoadSeconds : null;
  const lines = [`fused kernels against the unfused tfjs ops, paired: ${b.pairs} pairs of ${b.steps} GRPO steps from the agent per engine, alternating which path goes first (ms: medians of steps ≥ 1 from the records' time split; ratio: fused / unfused of the medians over runs)`];
  for (const e of b.engines) {
    if (e.error) {
      lines.push(`  ${e.engine}: ${e.error}`);
      continue;
    }
    for (const r of e.runs) lines.push(`  ${e.engine.padEnd(8)} ${r.asked.padEnd(7)} (ran ${r.ran ?? '?'}): stepping ${f1(r.steppingSeconds)} s, step ${f0(r.stepMs)} ms: sampling ${f1(r.split.sampling)}, update ${f1(r.split.update)}, evaluation ${f1(r.split.evaluation)}`);
    const [u, f] = [pathMedians(e, 'unfused'), pathMedians(e, 'fused')];
    lines.push(`  ${e.engine.padEnd(8)} fused / unfused: stepping ${f2(f.stepping / u.stepping)}, step ${f2(f.step / u.step)}, sampling ${f2(f.sampling / u.sampling)}, update ${f2(f.update / u.update)}, evaluation ${f2(f.evaluation / u.evaluation)}`);
  }
  const [ku, kf] = [b.kernels.unfused, b.kernels.fused];
  const perPosition = (c: OpCounts) => c.evaluateAndSample.kernels / c.evaluateAndSample.positions;
  lines.push(
    `kernels (Node wasm, unfused → fused): GRPO step ${ku.grpoStep.kernels} → ${kf.grpoStep.kernels}; per decoding position of the shared 94-row batch ${f1(perPosition(ku))} → ${f1(perPosition(kf))}; ` +
      `policy update ${ku.update.kernels} → ${kf.update.kernels}; pre-training step ${ku.pretrainStep.kernels} → ${kf.pretrainStep.kernels}; fine-tuning step ${ku.sftStep.kernels} → ${kf.sftStep.kernels}`,
  );
  const [su, sf] = [b.supervised.unfused, b.supervised.fused];
  lines.push(`supervised steps (Node wasm, medians of ${sf.steps}): pre-training ${f0(su.pretrainMs)} → ${f0(sf.pretrainMs)} ms (${f2(sf.pretrainMs / su.pretrainMs)}), fine-tuning ${f0(su.sftMs)} → ${f0(sf.sftMs)} ms (${f2(sf.sftMs / su.sftMs)})`);
  const floor = (flops: number) => flops / b.rate.fused / 1e6; // ms
  const node = b.engines.find((e) => e.engine === 'node')!;
  lines.push(`floors: a 1024×64 by 64×256 matmul runs at ${f1(b.rate.fused)} GFLOP/s in the fused module (${f1(b.rate.xnnpack)} in tfjs's XNNPACK) here now; a step's matmul FLOPs: sampling ${f0(b.flops.sampling / 1e6)} M, update ${f0(b.flops.update / 1e6)} M, evaluation ${f0(b.flops.evaluation / 1e6)} M → floors ${f1(floor(b.flops.sampling))} / ${f1(floor(b.flops.update))} / ${f1(floor(b.flops.evaluation))} ms`);
  for (const k of PATHS) {
    const p = pathMedians(node, k);
    lines.push(`  node ${k.padEnd(7)} phase / floor: sampling ${f2(p.sampling / floor(b.flops.sampling))}, update ${f2(p.update / floor(b.flops.update))}, evaluation ${f2(p.evaluation / floor(b.flops.evaluation))}`);
  }
  if (b.peer) {
    const ratios = b.engines.filter((e) => !e.error).map((e) => `${e.engine} ${f2(pathMedians(e, 'unfused').stepping / b.peer!.totalSeconds)} → ${f2(pathMedians(e, 'fused').stepping / b.peer!.totalSeconds)}`);
    lines.push(`PyTorch peer (${b.peer.command}): ${f1(b.peer.totalSeconds)} s; stepping / the peer's, unfused → fused: ${ratios.join(', ')}${fromLoadSeconds === null ? '' : `; Chromium, ${b.steps} steps from page load (fused) ${f1(fromLoadSeconds)} s = ${f2(fromLoadSeconds / b.peer.totalSeconds)}`}`);
  } else lines.push(`PyTorch peer: ${b.peerError ?? 'not run (--peer path/to/torch_ref.py)'}`);
  if (fromLoadSeconds !== null && !b.peer) lines.push(`Chromium, ${b.steps} steps from page load (fused): ${f1(fromLoadSeconds)} s`);
  return lines;
}
