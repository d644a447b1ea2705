// The workshop on Node (the bench's baseline): per-phase medians, the whole run's time, and its
// stepping time as the browser benches measure theirs (first point → end, wall clock).
import * as tf from '@tensorflow/tfjs';
import { useBackend, type NodeBackend } from './backend';
import { phaseMedians, timeSplitMedians, type PhaseMedians, type SplitMedians } from './bench-stats';
import { runWorkshop } from './run-workshop';

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
  await useBackend(backend);
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
