// The Node pipeline end to end at toy sizes: train → eval → workshop, through the npm scripts' entry points.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const tsx = (script: string, ...args: string[]) => {
  const r = spawnSync('npx', ['tsx', `scripts/${script}.ts`, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
};
const lastJson = (out: string) => JSON.parse(out.split('\n').at(-1)!);

describe('the Node pipeline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pipeline-'));

  it('trains a loadable agent checkpoint (and its pre-trained parent) at toy sizes', () => {
    const r = tsx('train-agent', '--pretrain-steps', '2', '--sft-steps', '2', '--out', dir, '--quiet', '--seed', '3');
    expect(r.code, r.err).toBe(0);
    const e = tsx('eval', '--checkpoint', join(dir, 'agent'), '--json');
    expect(e.code, e.err).toBe(0);
    const j = lastJson(e.out);
    expect(j).toMatchObject({ n: 30, demonstrations: 30, model: { layers: 2, dModel: 64, heads: 4, context: 32, params: 104208 } });
    expect(j.correct).toBe(Math.round(j.heldOut * 30));
    expect(tsx('eval', '--checkpoint', join(dir, 'pretrained'), '--json').code).toBe(0);
  });

  it('runs the workshop and ends with the plate’s readouts as one JSON line', () => {
    const r = tsx('workshop', '--checkpoint', join(dir, 'agent'), '--steps', '2', '--seed', '5', '--faulty', '--json');
    expect(r.code, r.err).toBe(0);
    const j = lastJson(r.out);
    expect(j).toMatchObject({ faulty: true, seed: 5, steps: 2, backend: 'wasm' });
    expect(j.heldOut).toHaveLength(3);
    expect(j.meanReward).toHaveLength(2);
    for (const k of ['heldOutStart', 'heldOutEnd', 'rewardFirst5', 'rewardLast5', 'seconds']) expect(typeof j[k]).toBe('number');
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

  it('refuses a bad option value with a one-line error', () => {
    const r = tsx('workshop', '--steps', 'many');
    expect(r.code).toBe(1);
    expect(r.err).toBe('error: --steps must be an integer ≥ 1, got "many"');
  });
});
