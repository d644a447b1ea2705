// The worker session in the two-call world, in Node with the real checkpoints: the world's agent
// is fetched only when a run in that world starts, GRPO trains from it on three-term sums, and
// an agent of the other world is refused by its file, in words, with the plate still usable.
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECKPOINTS } from '../../src/config';
import { useWasm } from '../tf';
import { CHECKPOINT_URLS, config, folder, has, session } from './session-harness';

beforeAll(useWasm);

const TWO_CALLS = { timeout: 120_000 };

describe('a trainer session in the two-call world', TWO_CALLS, () => {
  it('fetches the two-call agent only when a run in that world starts, and trains it on three-term sums', async () => {
    const t = session();
    t.init();
    await t.until(has('ready'));
    expect(t.fetched.some((u) => u.includes(CHECKPOINTS.agentTwoCalls))).toBe(false);
    t.s.handle({ type: 'start', config: config({ episode: 'two-calls', steps: 1 }) });
    await t.until(has('done'));
    expect(t.fetched.filter((u) => u.includes(CHECKPOINTS.agentTwoCalls))).toHaveLength(2); // manifest, weights
    const step = t.of('step').at(-1)!;
    if (step.stage !== 'grpo') throw new Error('the last step is GRPO’s');
    expect(step.record.episodes.every((e) => /^\^\d+\+\d+\+\d+=/.test(e.text))).toBe(true);
    expect(step.record.correctCallsPushedDown).not.toBeNull();
    expect(t.of('error')).toEqual([]);
  });

  it('plays one-call sums with the two-call agent when the run asks for it: the same agent on the shorter episode', async () => {
    const t = session();
    t.init();
    await t.until(has('ready'));
    t.s.handle({ type: 'start', config: config({ episode: 'one-call', agent: 'two-calls', steps: 1 }) });
    await t.until(has('done'));
    expect(t.fetched.filter((u) => u.includes(CHECKPOINTS.agentTwoCalls))).toHaveLength(2);
    const [first, last] = [t.of('step')[0]!, t.of('step').at(-1)!];
    if (first.stage !== 'grpo' || last.stage !== 'grpo') throw new Error('a run from the agent is GRPO alone');
    expect(first.record.heldOutCorrect).toBe(23); // the two-call agent on the one-call world's 30 held-out sums
    expect(last.record.episodes.every((e) => /^\^\d+\+\d+=/.test(e.text))).toBe(true);
    expect(t.of('error')).toEqual([]);
  });

  it('refuses the one-call agent given as the two-call one, naming the file, and a one-call run still trains', async () => {
    const t = session({ urls: { ...CHECKPOINT_URLS, agentTwoCalls: folder(CHECKPOINTS.agent) } });
    t.init();
    t.s.handle({ type: 'start', config: config({ episode: 'two-calls', steps: 1 }) });
    await t.until(has('error'));
    const error = t.of('error')[0]!;
    expect(error.kind).toBe('checkpoint');
    expect(error.message).toBe(
      `The two-call agent could not be loaded: ${folder(CHECKPOINTS.agent)}manifest.json: is the one-call world's agent, not the two-calls world's`,
    );
    t.s.handle({ type: 'start', config: config({ steps: 1 }) });
    await t.until(has('done'));
    expect(t.of('done')).toHaveLength(1);
  });
});
