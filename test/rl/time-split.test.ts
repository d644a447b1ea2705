// Where a GRPO step's time goes: each record splits its step's own work into sampling, the
// policy update and the held-out evaluation. A batch shared by an evaluation and the next
// step's sampling is split by rows; over a run the parts add up to the steps' wall time.
import { beforeAll, describe, expect, it } from 'vitest';
import { runWorkshop } from '../../src/node/run-workshop';
import { GRPO } from '../../src/config';
import { SPLIT } from '../../src/env/sums';
import { useWasm } from '../tf';

beforeAll(useWasm);

const HELD = SPLIT.heldOut.length;
const SAMPLED = GRPO.sumsPerStep * GRPO.episodesPerSum;

describe('the time split of a GRPO step', () => {
  it('gives a shared batch to the evaluation and the next step’s sampling by rows, and loses no time over a run', async () => {
    const { records } = await runWorkshop({ start: 'agent', seed: 1, steps: 4 });
    expect(records[0]!.timeSplit).toMatchObject({ sampling: 0, update: 0 });
    for (let s = 0; s < records.length - 1; s++) {
      const evaluation = records[s]!.timeSplit.evaluation;
      const nextSampling = records[s + 1]!.timeSplit.sampling;
      expect(evaluation, `step ${s}`).toBeGreaterThan(0);
      expect(evaluation / (evaluation + nextSampling), `step ${s}`).toBeCloseTo(HELD / (HELD + SAMPLED), 9);
    }
    for (const r of records.slice(1)) expect(r.timeSplit.update).toBeGreaterThan(0);
    // Every millisecond of the steps' wall time is in some part (up to the bookkeeping between them).
    const split = records.reduce((t, r) => t + r.timeSplit.sampling + r.timeSplit.update + r.timeSplit.evaluation, 0);
    const wall = records.reduce((t, r) => t + r.timings.total, 0);
    expect(split).toBeLessThanOrEqual(wall + 1e-6);
    expect(split).toBeGreaterThan(0.95 * wall);
  });

  it('times the evaluation and the sampling apart when batches are not shared, and trains the same run', async () => {
    const opts = { start: 'agent', seed: 2, steps: 3, faulty: true } as const;
    const shared = await runWorkshop(opts);
    const apart = await runWorkshop({ ...opts, grpo: { ...GRPO, shareBatch: false } });
    expect(apart.heldOut).toEqual(shared.heldOut);
    expect(apart.meanReward).toEqual(shared.meanReward);
    for (const r of apart.records.slice(1)) {
      expect(r.timeSplit.sampling).toBe(r.timings.sample);
      expect(r.timeSplit.sampling).toBeGreaterThan(0);
      expect(r.timeSplit.evaluation).toBeLessThanOrEqual(r.timings.evaluate);
    }
  });
});
