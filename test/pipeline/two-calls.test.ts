// The pipeline in the two-call world: the world travels in GRPO's config and the agent recipe,
// which must agree; GRPO refuses an agent whose context is another world's; the scripts take
// --episode and their JSON names the world and carries the per-step figures.
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_RECIPE, AGENT_RECIPES, GRPO } from '../../src/config';
import { TWO_CALL_SPLIT } from '../../src/env/sums';
import { PipelineRun } from '../../src/pipeline/run';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import { GrpoStage } from '../../src/rl/grpo';
import { loadCheckpoint, readCheckpointFiles, SHIPPED } from '../../src/node/checkpoint-fs';
import { runWorkshop } from '../../src/node/run-workshop';
import { useWasm } from '../tf';
import { lastJson, tsx } from '../scripts/run-script';

beforeAll(useWasm);

describe('a run in the two-call world', () => {
  it('refuses an agent recipe of one world for a run in the other, naming both', () => {
    const sources = {
      recipe: AGENT_RECIPE,
      grpo: GRPO,
      evalEvery: 10,
      agent: readCheckpointFiles(SHIPPED.agentTwoCalls),
      pretrained: async () => readCheckpointFiles(SHIPPED.pretrained),
    };
    const config = { ...PLATE_SETTINGS, episode: 'two-calls' as const, seed: 1, steps: 1 };
    expect(() => new PipelineRun(1, config, ['grpo'], sources, null)).toThrow(
      /fine-tunes for the one-call world, but the run's agent is the two-calls world's/,
    );
  });

  it('refuses to run GRPO in the two-call world from an agent of context 32 (a one-call agent)', () => {
    const { model } = loadCheckpoint(SHIPPED.agent);
    expect(() => new GrpoStage({ model, config: { ...GRPO, episode: 'two-calls' }, seed: 1 })).toThrow(
      /the two-calls world needs a model context of 48, this model's is 32/,
    );
    model.dispose();
  });

  it('fine-tunes the worksheet model widened, then runs GRPO on three-term sums', async () => {
    const recipe = { ...AGENT_RECIPES['two-calls'], sft: { ...AGENT_RECIPES['two-calls'].sft, steps: 2 } };
    const stages: string[] = [];
    const r = await runWorkshop(
      { start: 'pretrained', seed: 1, steps: 1, episode: 'two-calls', recipe, evalEvery: 0 },
      ({ stage }) => stages.push(stage),
    );
    expect(stages).toEqual(['sft', 'sft', 'sft', 'grpo', 'grpo']);
    const step = r.records[1]!;
    expect(step.heldOutN).toBe(TWO_CALL_SPLIT.heldOut.length);
    expect(step.episodes.every((e) => e.sum.c !== undefined)).toBe(true);
    expect(step.correctCallsPushedDown).toBeGreaterThanOrEqual(0);
  }, 60_000);
});

describe('the scripts in the two-call world', () => {
  it('evaluate the shipped two-call agent on the two-call held-out sums, and refuse a one-call agent there', () => {
    const e = tsx('eval', '--episode', 'two-calls', '--json');
    expect(e.code, e.err).toBe(0);
    const card = readCheckpointFiles(SHIPPED.agentTwoCalls).manifest.card.success as { heldOut: number };
    expect(lastJson(e.out)).toMatchObject({
      episode: 'two-calls',
      heldOut: card.heldOut,
      n: 30,
      model: { context: 48 },
    });
    const wrong = tsx('eval', '--episode', 'two-calls', '--checkpoint', SHIPPED.agent);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/has a context of 32; the two-calls world needs 48/);
  });

  it('run the workshop with --episode and --tool-latency-ms, naming both in the JSON line with the per-step figures', () => {
    const w = tsx('workshop', '--episode', 'two-calls', '--tool-latency-ms', '50', '--steps', '2', '--json');
    expect(w.code, w.err).toBe(0);
    const j = lastJson(w.out);
    const shipped = readCheckpointFiles(SHIPPED.agentTwoCalls).manifest.card.success as { heldOut: number };
    expect(j).toMatchObject({ episode: 'two-calls', toolLatencyMs: 50, heldOutStart: shipped.heldOut });
    expect(j.zeroSpreadGroups).toHaveLength(2);
    expect(j.correctCallsPushedDown).toHaveLength(2);
    expect(Object.keys(j)).toEqual(expect.arrayContaining(['meanReward', 'heldOut', 'timeSplit', 'agentDigest']));
  });

  it('play one-call sums with the two-call agent (--agent two-calls), echoing the agent that played, its flat groups split into all-fail and all-pass at every step', () => {
    const w = tsx('workshop', '--agent', 'two-calls', '--steps', '3', '--json');
    expect(w.code, w.err).toBe(0);
    const j = lastJson(w.out);
    expect(j).toMatchObject({ episode: 'one-call', agent: 'two-calls' });
    expect(j.heldOut[0]).toBeCloseTo(23 / 30, 10); // the two-call agent, greedy on the one-call world's 30 held-out sums
    const own = lastJson(tsx('workshop', '--steps', '3', '--json').out);
    expect(own.agent).toBe('one-call'); // the episode's own, named by its world
    expect(own.heldOut[0]).toBeCloseTo(24 / 30, 10); // the plate's agent
    for (const r of [j, own]) {
      expect(r.allFailGroups).toHaveLength(3);
      r.zeroSpreadGroups.forEach((z: number, i: number) =>
        expect(r.allFailGroups[i] + r.allPassGroups[i]).toBeCloseTo(z, 10),
      );
    }
  }, 60_000);

  it('refuse the plate’s agent on two-call sums in words, and name a bad agent', () => {
    const w = tsx('workshop', '--episode', 'two-calls', '--agent', 'one-call');
    expect(w.code).toBe(1);
    expect(w.err).toBe(
      'error: --agent one-call: the one-call agent cannot play two-call sums: it was fine-tuned on one-call sums only, and its context of 32 characters is shorter than the two-calls world’s 48',
    );
    const bad = tsx('workshop', '--agent', 'three-calls');
    expect(bad.err).toBe('error: --agent must be one of own, one-call, two-calls, got "three-calls"');
  });

  it('name a bad world, and a latency not offered, like any other bad option', () => {
    const w = tsx('workshop', '--episode', 'three');
    expect(w.code).toBe(1);
    expect(w.err).toBe('error: --episode must be one of one-call, two-calls, got "three"');
    const slow = tsx('workshop', '--tool-latency-ms', '5');
    expect(slow.err).toBe('error: --tool-latency-ms must be one of 0, 50, 200, got "5"');
  });
});
