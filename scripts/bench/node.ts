// `npm run bench -- node`: the workshop on Node (the other modes' baseline) per phase — its
// stepping time as the browser benches measure theirs (first point → end, wall clock) — on wasm
// and cpu, supervised steps and kernel counts per phase on wasm.
import * as tf from '@tensorflow/tfjs';
import { setNodeBackend, type NodeBackend } from '../lib/node-backend';
import { phaseMedians, timeSplitMedians, type PhaseMedians, type SplitMedians } from './stats';
import { runWorkshop } from '../../src/node/run-workshop';
import { formatOpCounts, opCounts, type OpCounts } from './ops';
import { benchSupervised, type SupervisedBench } from './supervised';

export interface NodeBench {
  backend: NodeBackend;
  steps: number;
  phases: PhaseMedians;
  split: SplitMedians;
  /** The workshop's own sum of its steps' timings (step 0's evaluation included). */
  workshopSeconds: number;
  /** Wall clock from step 0's record (the first point) to the last step's. */
  steppingSeconds: number;
  tensors: { afterFirstStep: number; atEnd: number };
  heapMB: { afterFirstStep: number; atEnd: number };
}

export async function benchNode(backend: NodeBackend, n: number): Promise<NodeBench> {
  await setNodeBackend(backend);
  let first = { tensors: 0, heap: 0 };
  let last = { tensors: 0, heap: 0 };
  let firstPoint = NaN;
  let end = NaN;
  const { records, grpo: summary } = await runWorkshop({ start: 'agent', faulty: false, seed: 1, steps: n }, ({ record: r }) => {
    end = performance.now();
    if (r.step === 0) firstPoint = end;
    last = { tensors: tf.memory().numTensors, heap: process.memoryUsage().heapUsed };
    if (r.step === 1) first = last;
  });
  return {
    backend,
    steps: n,
    phases: phaseMedians(records),
    split: timeSplitMedians(records),
    workshopSeconds: summary.seconds,
    steppingSeconds: (end - firstPoint) / 1000,
    tensors: { afterFirstStep: first.tensors, atEnd: last.tensors },
    heapMB: { afterFirstStep: first.heap / 2 ** 20, atEnd: last.heap / 2 ** 20 },
  };
}

export interface NodeModeBench {
  node: NodeBench[];
  supervised: SupervisedBench;
  kernels: OpCounts;
}

const CHECKPOINT = 'public/checkpoints/agent';

export async function benchNodeMode(opts: { steps: number; cpuSteps: number; supervisedSteps: number }): Promise<NodeModeBench> {
  const wasm = await benchNode('wasm', opts.steps);
  const supervised = await benchSupervised(opts.supervisedSteps); // still on wasm
  const kernels = await opCounts(CHECKPOINT);
  const cpu = await benchNode('cpu', opts.cpuSteps);
  return { node: [wasm, cpu], supervised, kernels };
}

const ms = (x: number | null | undefined) => (x == null ? '—' : x.toFixed(0).padStart(6));
/** The push (the episode viewer's before/after log-probs) as a share of a step: the median of per-step shares. */
const pushShare = (p: PhaseMedians | null | undefined) => (p?.pushShare == null || Number.isNaN(p.pushShare) ? '—' : `${(100 * p.pushShare).toFixed(1)}%`);

/** One row of the per-phase table (the browser mode's rows too). */
export function phaseRow(name: string, steps: number, fullSteps: number, p: PhaseMedians | null, seconds: number | string, tensors: string, heap: string): string[] {
  const workshop = typeof seconds === 'string' ? seconds : (seconds * (fullSteps / steps)).toFixed(1) + (steps < fullSteps ? ' (est.)' : '');
  return [name, String(steps), ms(p?.sample), ms(p?.logprobs), ms(p?.gradient), ms(p?.evaluate), ms(p?.push), pushShare(p), ms(p?.total), workshop, tensors, heap];
}

/** The per-phase table, with its header. */
export function phaseTable(rows: string[][]): string[] {
  const header = ['backend', 'steps', 'sample', 'logprobs', 'grad', 'eval', 'push', 'push %', 'step', 'workshop s', 'tensors', 'heap'];
  const table = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  const line = (r: string[]) => '| ' + r.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  return [
    "milliseconds per GRPO step (median over steps ≥ 1; eval includes the next step's sampling, which shares its batch; push: the log-probs before and after the update the episode viewer shows, included in step)",
    line(header),
    '| ' + widths.map((w) => '-'.repeat(w)).join(' | ') + ' |',
    ...rows.map(line),
  ];
}

export function nodeLines(b: NodeModeBench, steps: number): string[] {
  const rows = b.node.map((n) => phaseRow(`node ${n.backend}`, n.steps, steps, n.phases, n.workshopSeconds, `${n.tensors.afterFirstStep}→${n.tensors.atEnd}`, `${n.heapMB.afterFirstStep.toFixed(0)}→${n.heapMB.atEnd.toFixed(0)} MB`));
  return [
    ...phaseTable(rows),
    `\nsupervised steps on node wasm (median of ${b.supervised.steps}): pre-training ${b.supervised.pretrainMs.toFixed(0)} ms, fine-tuning ${b.supervised.sftMs.toFixed(0)} ms`,
    '\nkernels (node wasm; each costs some µs of bookkeeping, whatever its size)',
    ...formatOpCounts(b.kernels).map((l) => '  ' + l),
  ];
}
