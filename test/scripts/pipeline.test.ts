// The Node pipeline end to end at toy sizes, through the npm scripts' entry points: train →
// eval → workshop from each start, with the settings and the grader it is given, and what its
// JSON line carries. Each test stands alone (the toy checkpoint and the plate's short run are
// made first).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { lastJson, tsx } from './run-script';

describe('the Node pipeline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pipeline-'));
  let trained: ReturnType<typeof tsx>;
  /** The plate's settings, 2 steps from the shipped agent: the baseline the other runs are told apart from. */
  let plate: ReturnType<typeof tsx>;
  beforeAll(() => {
    trained = tsx('train-agent', '--pretrain-steps', '2', '--sft-steps', '2', '--out', dir, '--quiet', '--seed', '3');
    plate = tsx('workshop', '--steps', '2', '--json');
  });

  it('trains a loadable agent checkpoint (and its pre-trained parent) at toy sizes', () => {
    expect(trained.code, trained.err).toBe(0);
    const e = tsx('eval', '--checkpoint', join(dir, 'agent'), '--json');
    expect(e.code, e.err).toBe(0);
    const j = lastJson(e.out);
    expect(j).toMatchObject({
      n: 30,
      demonstrations: 30,
      model: { layers: 2, dModel: 64, heads: 4, context: 32, params: 104208 },
    });
    expect(j.correct).toBe(Math.round(j.heldOut * 30));
    expect(tsx('eval', '--checkpoint', join(dir, 'pretrained'), '--json').code).toBe(0);
  });

  it('runs the workshop from the shipped agent and ends with the plate’s readouts as one JSON line', () => {
    const r = tsx('workshop', '--steps', '2', '--seed', '5', '--faulty', '--json');
    expect(r.code, r.err).toBe(0);
    const j = lastJson(r.out);
    expect(j).toMatchObject({
      start: 'agent',
      faulty: true,
      masking: 'on',
      advantage: 'group',
      temperature: 1,
      seed: 5,
      steps: 2,
      backend: 'wasm',
      sftHeldOut: null,
    });
    expect(j.heldOut).toHaveLength(3);
    expect(j.meanReward).toHaveLength(2);
    for (const k of ['heldOutStart', 'heldOutEnd', 'rewardFirst5', 'rewardLast5', 'seconds'])
      expect(typeof j[k]).toBe('number');
    expect(Object.keys(j.stageSeconds)).toEqual(['grpo']);
  });

  it('runs with the credit settings it is given, and says so', () => {
    const r = tsx(
      'workshop',
      '--steps',
      '1',
      '--masking',
      'off',
      '--advantage',
      'raw',
      '--temperature',
      '1.5',
      '--json',
    );
    expect(r.code, r.err).toBe(0);
    const j = lastJson(r.out);
    expect(j).toMatchObject({ masking: 'off', advantage: 'raw', temperature: 1.5 });
    // Used, not only echoed: at temperature 1.5 the first step's episodes (sampled before any update) earn less.
    expect(j.meanReward[0]).toBeLessThan(lastJson(plate.out).meanReward[0] - 0.1);
  });

  it('echoes the grader and carries the true-success series and the time split', () => {
    const r = tsx('workshop', '--steps', '3', '--grader', 'crash-pass', '--json');
    expect(r.code, r.err).toBe(0);
    const j = lastJson(r.out);
    expect(j).toMatchObject({ grader: 'crash-pass', steps: 3 });
    expect(j.trueSuccess).toHaveLength(3);
    j.trueSuccess.forEach((t: number, i: number) => expect(t).toBeLessThanOrEqual(j.meanReward[i])); // a crash only ever adds reward
    expect(j.timeSplit).toMatchObject({
      sampling: expect.any(Number),
      update: expect.any(Number),
      evaluation: expect.any(Number),
      sharedBatch: true,
    });
    expect(r.out).toMatch(/workshop: .*a crash counts as a pass/); // the header names the grader
  });

  it('runs the plate’s exact grader by default, where true success is the reward', () => {
    expect(plate.code, plate.err).toBe(0);
    const j = lastJson(plate.out);
    expect(j.grader).toBe('exact');
    expect(j.trueSuccess).toEqual(j.meanReward);
  });

  it('runs the workshop from the worksheet model and from random weights, saying what fine-tuning reached and each stage’s time', () => {
    const pre = tsx(
      'workshop',
      '--start',
      'pretrained',
      '--pretrained',
      join(dir, 'pretrained'),
      '--sft-steps',
      '2',
      '--steps',
      '1',
      '--json',
    );
    expect(pre.code, pre.err).toBe(0);
    const p = lastJson(pre.out);
    expect(p).toMatchObject({ start: 'pretrained', sftHeldOut: expect.any(Number) });
    expect(p.heldOut[0]).toBe(p.sftHeldOut); // GRPO starts from the agent it fine-tuned
    expect(Object.keys(p.stageSeconds)).toEqual(['sft', 'grpo']);
    const scratch = tsx(
      'workshop',
      '--start',
      'scratch',
      '--pretrain-steps',
      '2',
      '--sft-steps',
      '2',
      '--steps',
      '1',
      '--json',
    );
    expect(scratch.code, scratch.err).toBe(0);
    expect(Object.keys(lastJson(scratch.out).stageSeconds)).toEqual(['pretrain', 'sft', 'grpo']);
  });

  it('says in one line which file is missing or corrupt, and exits non-zero', () => {
    const missing = tsx('eval', '--checkpoint', join(dir, 'nothing-here'));
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^error: .*nothing-here\/manifest\.json: is missing$/);
    const bad = mkdtempSync(join(tmpdir(), 'bad-'));
    writeFileSync(join(bad, 'manifest.json'), 'not json');
    const corrupt = tsx('workshop', '--checkpoint', bad, '--steps', '1');
    expect(corrupt.code).toBe(1);
    expect(corrupt.err.split('\n')).toHaveLength(1);
    expect(corrupt.err).toMatch(/manifest\.json: is not valid JSON/);
  });

  it('reuses each batch μ times with --updates-per-batch, and logs every step under TRL’s names', () => {
    const r = tsx('workshop', '--steps', '3', '--updates-per-batch', '4', '--json');
    expect(r.code, r.err).toBe(0);
    const j = lastJson(r.out);
    expect(j).toMatchObject({ updatesPerBatch: 4, steps: 3 });
    expect(j.metrics).toHaveLength(3);
    for (const [i, m] of j.metrics.entries()) {
      expect(Object.keys(m)).toEqual([
        'step',
        'reward',
        'reward_std',
        'frac_reward_zero_std',
        'frac_reward_zero_std/all_fail',
        'frac_reward_zero_std/all_pass',
        'reward/solve_none',
        'reward/solve_all',
        'reward/effective_batch_size',
        'entropy',
        'completions/mean_length',
        'clip_ratio/low_mean',
        'clip_ratio/high_mean',
        'clip_ratio/region_mean',
        'tools/call_frequency',
        'tools/failure_frequency',
      ]);
      expect(m.step).toBe(i + 1);
      expect(m.reward).toBe(j.meanReward[i]);
    }
    expect(j.metrics.some((m: Record<string, number>) => m['clip_ratio/region_mean'] > 0)).toBe(true);
    // The plate's μ = 1: the ratio is exactly 1, nothing is clipped.
    expect(lastJson(plate.out).metrics.map((m: Record<string, number>) => m['clip_ratio/region_mean'])).toEqual([0, 0]);
    expect(lastJson(plate.out).updatesPerBatch).toBe(1);
    expect(tsx('workshop', '--updates-per-batch', '3').err).toBe(
      'error: --updates-per-batch must be one of 1, 2, 4, got "3"',
    );
  });

  it('refuses a bad option value with a one-line error', () => {
    const r = tsx('workshop', '--steps', 'many');
    expect(r.code).toBe(1);
    expect(r.err).toBe('error: --steps must be an integer ≥ 1, got "many"');
    expect(tsx('workshop', '--start', 'middle').err).toBe(
      'error: --start must be one of agent, pretrained, scratch, got "middle"',
    );
    expect(tsx('workshop', '--masking', 'maybe').err).toBe('error: --masking must be one of on, off, got "maybe"');
    const grader = tsx('workshop', '--grader', 'lenient');
    expect(grader.code).toBe(1);
    expect(grader.err).toBe('error: --grader must be one of exact, crash-pass, trusts-tool, got "lenient"');
  });
});
