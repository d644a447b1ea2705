// npm run workshop's grader option and what its JSON line carries for it: the grader it ran
// with, the per-step true success, and where a step's time went.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const workshop = (...args: string[]) => {
  const r = spawnSync('npx', ['tsx', 'scripts/workshop.ts', ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
};
const lastJson = (out: string) => JSON.parse(out.split('\n').at(-1)!);

describe('npm run workshop -- --grader', () => {
  it('echoes the grader and carries the true-success series and the time split', () => {
    const r = workshop('--steps', '3', '--grader', 'crash-pass', '--json');
    expect(r.code, r.err).toBe(0);
    const j = lastJson(r.out);
    expect(j).toMatchObject({ grader: 'crash-pass', steps: 3 });
    expect(j.trueSuccess).toHaveLength(3);
    j.trueSuccess.forEach((t: number, i: number) => expect(t).toBeLessThanOrEqual(j.meanReward[i])); // a crash only ever adds reward
    expect(j.timeSplit).toMatchObject({ sampling: expect.any(Number), update: expect.any(Number), evaluation: expect.any(Number), sharedBatch: true });
    expect(r.out).toMatch(/crash-pass grader/);
  });

  it('runs the plate’s exact grader by default, where true success is the reward', () => {
    const j = lastJson(workshop('--steps', '2', '--json').out);
    expect(j.grader).toBe('exact');
    expect(j.trueSuccess).toEqual(j.meanReward);
  });

  it('refuses an unknown grader with a one-line error', () => {
    const r = workshop('--grader', 'lenient');
    expect(r.code).toBe(1);
    expect(r.err).toBe('error: --grader must be one of exact, crash-pass, trusts-tool, got "lenient"');
  });
});
