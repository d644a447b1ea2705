// The worker session with the three-call agent, in Node with the real checkpoints: the agent is
// fetched only when a run it plays starts (two or three calls, or that agent on one call), GRPO
// trains from it on three- and four-term sums, and the one-call agent given in its place is
// refused by its file, in words, with the plate still usable.
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECKPOINTS } from '../../src/config';
import { readCheckpointFiles, SHIPPED } from '../../src/node/checkpoint-fs';
import { useWasm } from '../tf';
import { CHECKPOINT_URLS, config, folder, has, session } from './session-harness';

beforeAll(useWasm);

const THREE_CALLS = { timeout: 120_000 };
const fetchedAgent = (fetched: string[]) => fetched.filter((u) => u.includes(CHECKPOINTS.agentThreeCalls));
/** The shipped three-call agent's greedy held-out successes at each length, as its card records them. */
const byWorld = () =>
  (
    readCheckpointFiles(SHIPPED.agentThreeCalls).manifest.card.success as {
      byWorld: Record<string, { heldOut: number }>;
    }
  ).byWorld;

describe('a trainer session with the three-call agent', THREE_CALLS, () => {
  it('fetches the three-call agent only when a run it plays starts, and trains it on four-term sums', async () => {
    const t = session();
    t.init();
    await t.until(has('ready'));
    expect(fetchedAgent(t.fetched)).toHaveLength(0);
    t.s.handle({ type: 'start', config: config({ episode: 'three-calls', steps: 1 }) });
    await t.until(has('done'));
    expect(fetchedAgent(t.fetched)).toHaveLength(2); // manifest, weights
    const step = t.of('step').at(-1)!;
    if (step.stage !== 'grpo') throw new Error('the last step is GRPO’s');
    expect(step.record.episodes.every((e) => /^\^\d+\+\d+\+\d+\+\d+=/.test(e.text))).toBe(true);
    expect(step.record.correctCallsPushedDown).not.toBeNull();
    expect(t.of('error')).toEqual([]);
  });

  it('plays two-call sums with it as that world’s own agent, fetched once for both worlds', async () => {
    const t = session();
    t.init();
    await t.until(has('ready'));
    t.s.handle({ type: 'start', config: config({ episode: 'two-calls', steps: 1 }) });
    await t.until(has('done'));
    t.s.handle({ type: 'start', config: config({ episode: 'three-calls', steps: 1 }) });
    await t.until((m) => m.filter((x) => x.type === 'done').length === 2);
    expect(fetchedAgent(t.fetched)).toHaveLength(2);
    const first = t.of('step')[0]!;
    if (first.stage !== 'grpo') throw new Error('a run from the agent is GRPO alone');
    expect(first.record.heldOutCorrect / 30).toBeCloseTo(byWorld()['two-calls']!.heldOut, 10);
    expect(t.of('error')).toEqual([]);
  });

  it('plays one-call sums with the three-call agent when the run asks for it: the same agent on the shortest episode', async () => {
    const t = session();
    t.init();
    await t.until(has('ready'));
    t.s.handle({ type: 'start', config: config({ episode: 'one-call', agent: 'three-calls', steps: 1 }) });
    await t.until(has('done'));
    expect(fetchedAgent(t.fetched)).toHaveLength(2);
    const [first, last] = [t.of('step')[0]!, t.of('step').at(-1)!];
    if (first.stage !== 'grpo' || last.stage !== 'grpo') throw new Error('a run from the agent is GRPO alone');
    expect(first.record.heldOutCorrect / 30).toBeCloseTo(byWorld()['one-call']!.heldOut, 10);
    expect(last.record.episodes.every((e) => /^\^\d+\+\d+=/.test(e.text))).toBe(true);
    expect(t.of('error')).toEqual([]);
  });

  it('refuses the one-call agent given as the three-call one, naming the file, and a one-call run still trains', async () => {
    const t = session({ urls: { ...CHECKPOINT_URLS, agentThreeCalls: folder(CHECKPOINTS.agent) } });
    t.init();
    t.s.handle({ type: 'start', config: config({ episode: 'two-calls', steps: 1 }) });
    await t.until(has('error'));
    const error = t.of('error')[0]!;
    expect(error.kind).toBe('checkpoint');
    expect(error.message).toBe(
      `The three-call agent could not be loaded: ${folder(CHECKPOINTS.agent)}manifest.json: is the one-call agent, not the three-calls agent`,
    );
    t.s.handle({ type: 'start', config: config({ steps: 1 }) });
    await t.until(has('done'));
    expect(t.of('done')).toHaveLength(1);
  });
});
