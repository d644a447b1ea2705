// Each of the figure's switches, tested by what it does to training — through the same
// PipelineRun the page's worker drives, from the shipped agent on WASM — never by the label it
// echoes. Break the plumbing the way a bug would (the pipeline passes the default GRPO
// settings, the rollout ignores the temperature) and these fail.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { runWorkshop, type WorkshopOptions } from '../../src/node/run-workshop';
import { copiesTool, GrpoStage, type GrpoRecord } from '../../src/rl/grpo';
import { useWasm } from '../tf';

beforeAll(useWasm);

const steps = async (over: Partial<WorkshopOptions>, n = 3): Promise<GrpoRecord[]> =>
  (await runWorkshop({ start: 'agent', seed: 1, steps: n, ...over })).records.slice(1);

const episodes = (records: GrpoRecord[]) => records.flatMap((r) => r.episodes);
const meanReward = (records: GrpoRecord[]) => records.reduce((t, r) => t + r.meanReward!, 0) / records.length;

describe('the switches, by their effect on a run from the shipped agent', () => {
  it('faulty calculator: its lies are in the episodes, copying one earns nothing, and the reward falls', async () => {
    const reliable = await steps({ faulty: false }, 5);
    const faulty = await steps({ faulty: true }, 5);
    expect(episodes(reliable).filter((e) => e.result?.lied)).toHaveLength(0);
    const lied = episodes(faulty).filter((e) => e.result?.lied);
    // About 30% of the calls lie.
    const calls = faulty.reduce((n, r) => n + r.calls, 0);
    expect(lied.length / calls).toBeGreaterThan(0.2);
    expect(lied.length / calls).toBeLessThan(0.4);
    // Copying a lie earns nothing (unless the call's operands slipped and the lie is, by chance, the true sum).
    const copied = lied.filter(copiesTool);
    expect(copied.length).toBeGreaterThan(lied.length / 2);
    expect(copied.filter((e) => e.reward > 0).every((e) => Number(e.answer) === e.sum.a + e.sum.b)).toBe(true);
    expect(copied.filter((e) => e.reward > 0).length).toBeLessThan(copied.length / 10);
    // The agent copies the tool, so the lies cap what it can earn: 61% → 44% in the reference runs' first five steps.
    expect(meanReward(faulty)).toBeLessThan(meanReward(reliable) - 0.08);
  });

  it('observation masking off: the calculator’s characters are in the loss, and the update differs', async () => {
    const [on] = await steps({ masking: true }, 1);
    const [off] = await steps({ masking: false }, 1);
    // Step 1 samples before any update: the same episodes either way.
    expect(off!.episodes.map((e) => e.text)).toEqual(on!.episodes.map((e) => e.text));
    expect(on!.trainedChars).toBe(on!.modelChars);
    expect(off!.trainedChars).toBe(off!.modelChars + off!.envChars);
    expect(off!.envChars).toBeGreaterThan(0);
    expect(off!.loss).not.toBe(on!.loss);
  });

  it('raw reward: every advantage is the episode’s reward; group-relative: each group’s advantages are centred', async () => {
    const raw = episodes(await steps({ advantage: 'raw' }, 2));
    expect(raw.map((e) => e.advantage)).toEqual(raw.map((e) => e.reward));
    const group = episodes(await steps({ advantage: 'group' }, 2));
    expect(group.some((e) => e.advantage !== e.reward)).toBe(true);
    for (let g = 0; g < group.length; g += 8) {
      const sum = group.slice(g, g + 8).reduce((t, e) => t + e.advantage, 0);
      expect(Math.abs(sum)).toBeLessThan(1e-9);
    }
  });

  it('temperature: 0.5 samples fewer distinct episodes per sum, fewer malformed ones and a higher reward than 1.5', async () => {
    const stats = async (temperature: 0.5 | 1.5) => {
      const records = await steps({ temperature }, 2);
      const all = episodes(records);
      let distinct = 0;
      for (let g = 0; g < all.length; g += 8) distinct += new Set(all.slice(g, g + 8).map((e) => e.text)).size;
      return { distinct, malformed: all.filter((e) => e.reason !== 'answered').length, reward: meanReward(records) };
    };
    const cold = await stats(0.5);
    const hot = await stats(1.5);
    expect(cold.distinct).toBeLessThan(hot.distinct / 2);
    expect(cold.malformed).toBeLessThan(hot.malformed);
    expect(cold.reward).toBeGreaterThan(hot.reward + 0.2);
  });

  it('steps: the GRPO stage plans the run’s own number of steps, the horizon of its sampling ahead', async () => {
    const planned: number[] = [];
    const initial = GrpoStage.prototype.initial;
    vi.spyOn(GrpoStage.prototype, 'initial').mockImplementation(function (this: GrpoStage) {
      planned.push(this.config.steps);
      return initial.call(this);
    });
    const { records } = await runWorkshop({ start: 'agent', seed: 1, steps: 2 });
    vi.restoreAllMocks();
    expect(records.map((r) => r.step)).toEqual([0, 1, 2]);
    expect(planned).toEqual([2]);
  });
});
