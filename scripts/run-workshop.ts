// One headless workshop run from a checkpoint folder, shared by the workshop, reference-runs
// and bench scripts: load (or exit with a one-line error), train, collect the records.
import { GRPO } from '../src/config';
import { summarise, type RunSummary } from '../src/rl/summary';
import { GrpoTrainer, type StepRecord } from '../src/rl/trainer';
import { fail } from './args';
import { loadCheckpoint } from './checkpoint-fs';

export interface WorkshopRun {
  records: StepRecord[];
  summary: RunSummary;
  /** Per-step curves as the plate draws them: held-out for steps 0..n, mean reward for 1..n. */
  heldOut: number[];
  meanReward: number[];
}

export async function runWorkshop(
  checkpoint: string,
  opts: { faulty: boolean; seed: number; steps: number },
  onStep?: (r: StepRecord) => void,
): Promise<WorkshopRun> {
  let loaded;
  try {
    loaded = loadCheckpoint(checkpoint);
  } catch (e) {
    fail((e as Error).message);
  }
  const trainer = new GrpoTrainer({ model: loaded.model, config: GRPO, faulty: opts.faulty, seed: opts.seed });
  const records: StepRecord[] = [];
  const t0 = performance.now();
  try {
    for await (const r of trainer.run(opts.steps)) {
      records.push(r);
      onStep?.(r);
    }
  } finally {
    trainer.dispose();
    loaded.model.dispose();
  }
  return {
    records,
    summary: summarise(records, (performance.now() - t0) / 1000),
    heldOut: records.map((r) => r.heldOut),
    meanReward: records.flatMap((r) => (r.meanReward === null ? [] : [r.meanReward])),
  };
}
