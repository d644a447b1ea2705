// The pipeline in the longer worlds, played by the three-call agent: the agent travels in the
// agent recipe and the run's settings, which must agree; GRPO refuses an agent whose context is
// too short for the world; the scripts take --episode and --agent, and their JSON names both and
// carries the per-step figures.
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_RECIPE, AGENT_RECIPES, GRPO } from '../../src/config';
import { THREE_CALL_SPLIT } from '../../src/env/sums';
import { PipelineRun } from '../../src/pipeline/run';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import { GrpoStage } from '../../src/rl/grpo';
import { loadCheckpoint, readCheckpointFiles, SHIPPED } from '../../src/node/checkpoint-fs';
import { runWorkshop } from '../../src/node/run-workshop';
import { useWasm } from '../tf';
import { lastJson, tsx } from '../scripts/run-script';

beforeAll(useWasm);

type Scores = { heldOut: number };
/** The shipped three-call agent's greedy held-out success at each length, as its card records it. */
const card = () =>
  (readCheckpointFiles(SHIPPED.agentThreeCalls).manifest.card.success as { byWorld: Record<string, Scores> }).byWorld;

describe('a run in the three-call world', () => {
  it('refuses an agent recipe of one agent for a run the other plays, naming both', () => {
    const sources = {
      recipe: AGENT_RECIPE,
      grpo: GRPO,
      evalEvery: 10,
      agent: readCheckpointFiles(SHIPPED.agentThreeCalls),
      pretrained: async () => readCheckpointFiles(SHIPPED.pretrained),
    };
    const config = { ...PLATE_SETTINGS, episode: 'three-calls' as const, seed: 1, steps: 1 };
    expect(() => new PipelineRun(1, config, ['grpo'], sources, null)).toThrow(
      /fine-tunes the one-call agent, but the run's agent is the three-calls agent/,
    );
  });

  it('refuses to run GRPO at three calls from an agent of context 32 (the one-call agent)', () => {
    const { model } = loadCheckpoint(SHIPPED.agent);
    expect(() => new GrpoStage({ model, config: { ...GRPO, episode: 'three-calls' }, seed: 1 })).toThrow(
      /the three-calls world needs a model context of 60, this model's is 32/,
    );
    model.dispose();
  });

  it('fine-tunes the worksheet model widened, then runs GRPO on four-term sums', async () => {
    const recipe = { ...AGENT_RECIPES['three-calls'], sft: { ...AGENT_RECIPES['three-calls'].sft, steps: 2 } };
    const stages: string[] = [];
    const r = await runWorkshop(
      { start: 'pretrained', seed: 1, steps: 1, episode: 'three-calls', recipe, evalEvery: 0 },
      ({ stage }) => stages.push(stage),
    );
    expect(stages).toEqual(['sft', 'sft', 'sft', 'grpo', 'grpo']);
    const step = r.records[1]!;
    expect(step.heldOutN).toBe(THREE_CALL_SPLIT.heldOut.length);
    expect(step.episodes.every((e) => e.sum.d !== undefined)).toBe(true);
    expect(step.correctCallsPushedDown).toBeGreaterThanOrEqual(0);
  }, 60_000);
});

describe('the scripts with the three-call agent', () => {
  it('evaluate the shipped three-call agent at two and three calls as its card says, and refuse a one-call agent there', () => {
    for (const episode of ['two-calls', 'three-calls']) {
      const e = tsx('eval', '--episode', episode, '--json');
      expect(e.code, e.err).toBe(0);
      expect(lastJson(e.out)).toMatchObject({
        episode,
        heldOut: card()[episode]!.heldOut,
        n: 30,
        model: { context: 64 },
      });
    }
    const wrong = tsx('eval', '--episode', 'three-calls', '--checkpoint', SHIPPED.agent);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/has a context of 32; the three-calls world needs 60/);
  });

  it('run the workshop at three calls with the three-call agent (--episode three-calls --agent three-calls --json), naming both, with the per-step figures', () => {
    const w = tsx('workshop', '--episode', 'three-calls', '--agent', 'three-calls', '--steps', '2', '--json');
    expect(w.code, w.err).toBe(0);
    const j = lastJson(w.out);
    expect(j).toMatchObject({
      episode: 'three-calls',
      agent: 'three-calls',
      heldOutStart: card()['three-calls']!.heldOut,
    });
    for (const k of ['meanReward', 'zeroSpreadGroups', 'allFailGroups', 'allPassGroups', 'correctCallsPushedDown'])
      expect(j[k], k).toHaveLength(2);
    expect(Object.keys(j)).toEqual(expect.arrayContaining(['heldOut', 'timeSplit', 'agentDigest', 'metrics']));
  }, 60_000);

  it('run two calls with their own agent, the three-call one, and a slow tool (--episode two-calls --tool-latency-ms 50)', () => {
    const w = tsx('workshop', '--episode', 'two-calls', '--tool-latency-ms', '50', '--steps', '2', '--json');
    expect(w.code, w.err).toBe(0);
    const j = lastJson(w.out);
    expect(j).toMatchObject({
      episode: 'two-calls',
      agent: 'three-calls',
      toolLatencyMs: 50,
      heldOutStart: card()['two-calls']!.heldOut,
    });
    expect(j.correctCallsPushedDown).toHaveLength(2);
  }, 60_000);

  it('play one-call sums with the three-call agent (--agent three-calls), its flat groups split into all-fail and all-pass at every step', () => {
    const w = tsx('workshop', '--agent', 'three-calls', '--steps', '3', '--json');
    expect(w.code, w.err).toBe(0);
    const j = lastJson(w.out);
    expect(j).toMatchObject({ episode: 'one-call', agent: 'three-calls' });
    expect(j.heldOut[0]).toBeCloseTo(card()['one-call']!.heldOut, 10);
    const own = lastJson(tsx('workshop', '--steps', '3', '--json').out);
    expect(own.agent).toBe('one-call'); // the episode's own
    expect(own.heldOut[0]).toBeCloseTo(24 / 30, 10); // the plate's agent
    for (const r of [j, own]) {
      expect(r.allFailGroups).toHaveLength(3);
      r.zeroSpreadGroups.forEach((z: number, i: number) =>
        expect(r.allFailGroups[i] + r.allPassGroups[i]).toBeCloseTo(z, 10),
      );
    }
  }, 60_000);

  it('refuse the plate’s agent at two and three calls in words, and name a bad agent or world', () => {
    const w = tsx('workshop', '--episode', 'three-calls', '--agent', 'one-call');
    expect(w.code).toBe(1);
    expect(w.err).toBe(
      'error: --agent one-call: the one-call agent cannot play three-call sums: it was fine-tuned on one-call sums only, and its context of 32 characters is shorter than the three-calls world’s longest episode, 60',
    );
    const bad = tsx('workshop', '--agent', 'two-calls');
    expect(bad.err).toBe('error: --agent must be one of own, one-call, three-calls, got "two-calls"');
    const world = tsx('workshop', '--episode', 'four-calls');
    expect(world.err).toBe('error: --episode must be one of one-call, two-calls, three-calls, got "four-calls"');
    const slow = tsx('workshop', '--tool-latency-ms', '5');
    expect(slow.err).toBe('error: --tool-latency-ms must be one of 0, 50, 200, got "5"');
  });
});
