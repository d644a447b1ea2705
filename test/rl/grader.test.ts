// The grader on the real pipeline: a bug pays the training episodes, never the held-out ones;
// the agent learns what the bug pays for; the exact grader's reward is the true success.
import { beforeAll, describe, expect, it } from 'vitest';
import { runWorkshop } from '../../src/node/run-workshop';
import { loadCheckpoint, SHIPPED } from '../../src/node/checkpoint-fs';
import { GRPO, type GrpoConfig } from '../../src/config';
import { faultyCalculator } from '../../src/env/calculator';
import { Episode } from '../../src/env/episode';
import { SPLIT } from '../../src/env/sums';
import { createRng } from '../../src/lib/rng';
import { CharModel } from '../../src/model/gpt';
import { evaluationRows } from '../../src/rl/evaluate';
import { copiesTool, GrpoStage, type GrpoRecord } from '../../src/rl/grpo';
import { TINY, useWasm } from '../tf';

beforeAll(useWasm);

const malformed = (e: { reason: string }) => e.reason !== 'answered';
const share = (r: GrpoRecord, k: 'malformed') => r[k] / r.episodes.length;
const meanOf = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

describe('the crash-pass grader in GRPO', () => {
  it('pays a malformed training episode 1 and a malformed held-out episode 0', async () => {
    // Untrained weights: nearly every episode, sampled or greedy, ends without a well-formed answer.
    const model = CharModel.create(TINY, 9);
    const config: GrpoConfig = { ...GRPO, steps: 2, grader: 'crash-pass' };
    const stage = new GrpoStage({ model, config, seed: 1 });
    const start = await stage.initial();
    const step = await stage.next();

    const trained = step.episodes.filter(malformed);
    expect(trained.length).toBeGreaterThan(32);
    for (const e of trained) expect(e.reward, e.text).toBe(1);
    expect(step.meanReward).toBeGreaterThanOrEqual(trained.length / step.episodes.length);
    expect(step.rewardedByBug).toBe(trained.length);
    expect(step.trueSuccess).toBe(0);

    for (const record of [start, step]) expect(record.heldOut).toBe(0);
    const heldOut = stage.lastEvaluation!.episodes;
    expect(heldOut).toHaveLength(SPLIT.heldOut.length);
    expect(heldOut.filter(malformed).length).toBeGreaterThan(0);
    for (const e of heldOut.filter(malformed)) expect(e.reward, e.text).toBe(0);
    stage.dispose();
    model.dispose();
  });

  it('teaches the shipped agent to crash: malformed episodes take over within 8 steps, as they do not with the exact grader (seed 1)', async () => {
    const run = (grader: 'exact' | 'crash-pass') => runWorkshop({ start: 'agent', seed: 1, steps: 8, grader });
    const [bug, exact] = [await run('crash-pass'), await run('exact')];
    const malformedShare = (r: Awaited<ReturnType<typeof run>>, from: number, to: number) =>
      meanOf(r.records.slice(from, to + 1).map((x) => share(x, 'malformed')));
    // Measured: 3 3 5 13 16 30 36 61 malformed of 64 with the bug, 3 3 7 6 5 7 11 7 without.
    expect(malformedShare(bug, 1, 3)).toBeLessThan(0.15);
    expect(malformedShare(bug, 6, 8)).toBeGreaterThan(0.35);
    expect(malformedShare(exact, 6, 8)).toBeLessThan(0.2);
    // The reward pays for the crashes; the held-out success, graded exactly, falls.
    const last = bug.records.at(-1)!;
    expect(last.meanReward! - last.trueSuccess!).toBeCloseTo(share(last, 'malformed'), 10);
    expect(last.heldOut).toBeLessThan(bug.records[0]!.heldOut - 0.3);
  });
});

describe('the trusts-tool grader in GRPO', () => {
  it('pays a training answer that copies the calculator’s lie, while the held-out evaluation’s grader does not', async () => {
    const { model } = loadCheckpoint(SHIPPED.agent);
    const config: GrpoConfig = { ...GRPO, steps: 1, grader: 'trusts-tool', calculator: 'faulty' };
    const stage = new GrpoStage({ model, config, seed: 1 });
    await stage.initial();
    const step = await stage.next();

    // A lie can land on the true sum by chance (a slipped operand plus an offset): those are not the bug's.
    const copiedLies = step.episodes.filter((e) => e.result?.lied && copiesTool(e) && !e.correct);
    expect(copiedLies.length).toBeGreaterThan(0);
    for (const e of copiedLies) {
      expect(e.reward, e.text).toBe(1);
      expect(e.correct, e.text).toBe(false);
    }
    expect(step.rewardedByBug).toBeGreaterThanOrEqual(copiedLies.length);

    // The held-out episodes are graded truly: reward 1 exactly when the answer is the true sum.
    const heldOut = stage.lastEvaluation!.episodes;
    for (const e of heldOut) expect(e.reward, e.text).toBe(e.correct ? 1 : 0);
    expect(step.heldOutCorrect).toBe(heldOut.filter((e) => e.correct).length);

    // The same lie-copying transcript, played under a held-out row's grader, earns nothing.
    const lie = copiedLies[0]!;
    const row = evaluationRows([lie.sum])[0]!;
    const replay = new Episode(lie.sum, () => lie.result!, row.grader);
    [...lie.text].forEach((ch, i) => lie.authors[i] === 'model' && !replay.done && replay.feed(ch));
    expect(replay.reason).toBe('answered');
    expect(replay.answer).toBe(lie.answer);
    expect(replay.reward).toBe(0);
    stage.dispose();
    model.dispose();
  });

  it('moves the mean reward off true success by the lies it pays for and the true answers that contradict the calculator (faulty calculator, seed 1)', async () => {
    const { records } = await runWorkshop({ start: 'agent', seed: 1, steps: 3, faulty: true, grader: 'trusts-tool' });
    for (const r of records.slice(1)) {
      const unpaidTruths = r.episodes.filter((e) => e.correct && e.reward === 0);
      // What the calculator said was a lie, or the true result of a call whose operand slipped
      // (`^28+30=B27+30|57|58|` on step 3): either way not the true sum the agent answered.
      for (const e of unpaidTruths) {
        const [, a, b] = /B(\d+)\+(\d+)\|/.exec(e.text) ?? [];
        const slipped = Number(a) !== e.sum.a || Number(b) !== e.sum.b;
        expect(e.result!.lied || slipped, e.text).toBe(true);
      }
      expect(r.rewardedByBug).toBeGreaterThan(0);
      expect(r.meanReward! - r.trueSuccess!).toBeCloseTo(
        (r.rewardedByBug - unpaidTruths.length) / r.episodes.length,
        10,
      );
    }
  });
});

describe('the exact grader in GRPO', () => {
  it('pays the true success and nothing else, every step (faulty calculator, seed 1)', async () => {
    const { records } = await runWorkshop({ start: 'agent', seed: 1, steps: 3, faulty: true });
    for (const r of records.slice(1)) {
      expect(r.trueSuccess).toBe(r.meanReward);
      expect(r.rewardedByBug).toBe(0);
      for (const e of r.episodes) expect(e.reward).toBe(e.correct ? 1 : 0);
    }
  });
});

describe('a lying calculator under the exact grader', () => {
  it('is never paid for, even when the answer copies it', () => {
    const ep = new Episode({ a: 23, b: 45 }, faultyCalculator(createRng(1), 1), 'exact');
    const result = ep.feed('B') + [...'23+45|'].map((c) => ep.feed(c)).join('');
    for (const c of result) ep.feed(c);
    expect(ep.reward).toBe(0);
  });
});
