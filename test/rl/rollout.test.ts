import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { faultyCalculator, reliableCalculator } from '../../src/env/calculator';
import { createRng } from '../../src/lib/rng';
import { evaluateGreedy } from '../../src/rl/evaluate';
import { rollout } from '../../src/rl/rollout';
import { loadCheckpoint } from '../../src/node/checkpoint-fs';
import type { CharModel } from '../../src/model/gpt';
import { scriptedPolicy, useWasm } from '../tf';

beforeAll(useWasm);

/** A perfect agent: calls the calculator on the prompt's operands, then copies the result. */
const copier = scriptedPolicy((_, text) => {
  const m = /^\^(\d+)\+(\d+)=(.*)$/.exec(text);
  if (!m) return '.'; // the row is still being fed its prompt: this prediction is never read
  const after = m[3]!;
  const call = `B${m[1]}+${m[2]}|`;
  if (after.length < call.length) return call[after.length]!;
  const result = after.slice(call.length).split('|')[0]! + '|';
  const answered = after.slice(call.length + result.length);
  return result[answered.length] ?? '.';
});

const who = (authors: string[]) => authors.map((a) => a[0]).join('');

describe('rollouts', () => {
  it('of a scripted agent produce exactly the expected transcripts, authors and rewards', async () => {
    const sums = [
      { a: 23, b: 45 },
      { a: 99, b: 99 },
    ];
    const eps = await rollout(copier, sums, { calculator: reliableCalculator, temperature: 1, greedy: true });
    expect(eps.map((e) => e.text)).toEqual(['^23+45=B23+45|68|68|', '^99+99=B99+99|198|198|']);
    expect(who(eps[0]!.authors)).toBe('pppppppmmmmmmmeeemmm');
    expect(who(eps[1]!.authors)).toBe('pppppppmmmmmmmeeeemmmm');
    expect(eps.map((e) => e.reward)).toEqual([1, 1]);
    expect(eps.map((e) => e.reason)).toEqual(['answered', 'answered']);
  });

  it('in one batch, with prompts of different lengths, credit each character to who wrote it', async () => {
    const sums = [
      { a: 5, b: 7 },
      { a: 23, b: 45 },
      { a: 123, b: 45 },
    ];
    const eps = await rollout(copier, sums, { calculator: reliableCalculator, temperature: 1, greedy: true });
    expect(eps.map((e) => e.text)).toEqual(['^5+7=B5+7|12|12|', '^23+45=B23+45|68|68|', '^123+45=B123+45|168|168|']);
    expect(eps.map((e) => who(e.authors))).toEqual([
      'pppppmmmmmeeemmm',
      'pppppppmmmmmmmeeemmm',
      'ppppppppmmmmmmmmeeeemmmm',
    ]);
    expect(eps.map((e) => e.reward)).toEqual([1, 1, 1]);
  });

  it('with a faulty calculator show the lie, and the agent that copies it earns 0', async () => {
    const sums = Array.from({ length: 40 }, (_, i) => ({ a: 10 + i, b: 50 }));
    const eps = await rollout(copier, sums, {
      calculator: faultyCalculator(createRng(4), 0.3),
      temperature: 1,
      greedy: false,
      rng: createRng(1),
    });
    const lied = eps.filter((e) => e.result!.lied);
    expect(lied.length).toBeGreaterThan(4);
    expect(lied.length).toBeLessThan(25);
    for (const e of eps) {
      expect(e.reward).toBe(e.result!.lied ? 0 : 1);
      expect(e.answer).toBe(String(e.result!.value));
    }
  });

  it('end a malformed action with reward 0 and keep the episode', async () => {
    const rambler = scriptedPolicy(() => '7'); // never calls the calculator
    const [e] = await rollout(rambler, [{ a: 23, b: 45 }], {
      calculator: reliableCalculator,
      temperature: 1,
      greedy: true,
    });
    expect(e!.text).toBe('^23+45=7');
    expect(e!.reason).toBe('no call');
    expect(e!.reward).toBe(0);
  });

  it('stop at the context limit', async () => {
    const digits = scriptedPolicy((_, t) => (t.length === 7 ? 'B' : '1'), 12);
    const [e] = await rollout(digits, [{ a: 23, b: 45 }], {
      calculator: reliableCalculator,
      temperature: 1,
      greedy: true,
    });
    expect(e!.text).toHaveLength(12);
    expect(e!.reason).toBe('context full');
  });

  it('leave no tensors behind', async () => {
    const before = tf.memory().numTensors;
    await rollout(
      copier,
      [{ a: 1, b: 2 }].map(() => ({ a: 12, b: 34 })),
      { calculator: reliableCalculator, temperature: 1, greedy: true },
    );
    expect(tf.memory().numTensors).toBe(before);
  });
});

describe('held-out evaluation', () => {
  it('always uses the reliable calculator', async () => {
    const sums = Array.from({ length: 30 }, (_, i) => ({ a: 10 + i, b: 60 }));
    const ev = await evaluateGreedy(copier, sums);
    expect(ev.episodes.every((e) => e.result && !e.result.lied)).toBe(true);
    expect(ev.success).toBe(1);
    expect(ev.correct).toBe(30);
  });
});

describe('rollouts of the shipped agent', () => {
  const sums = [
    { a: 23, b: 45 },
    { a: 99, b: 99 },
    { a: 10, b: 11 },
  ];
  const agent = () => loadCheckpoint('public/checkpoints/agent').model;

  it('leave tf.memory().numTensors where it was, the key/value cache included', async () => {
    const model = agent();
    const before = tf.memory().numTensors;
    const eps = await rollout(model, sums, {
      calculator: reliableCalculator,
      temperature: 1,
      greedy: false,
      rng: createRng(2),
    });
    expect(Math.max(...eps.map((e) => e.text.length))).toBeGreaterThan(15); // many positions, a long cache
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
  });

  it('free their tensors when the model’s forward throws partway through', async () => {
    const model = agent();
    const failing = (calls: number) => {
      let n = 0;
      const forward: CharModel['forward'] = (tokens, opts) => {
        if (++n === calls) throw new Error('forward failed');
        return model.forward(tokens, opts);
      };
      return forward;
    };
    const before = tf.memory().numTensors;
    const plain = { config: model.config, forward: failing(3) }; // no frozen copy
    await expect(
      rollout(plain, sums, { calculator: reliableCalculator, temperature: 1, greedy: true }),
    ).rejects.toThrow('forward failed');
    const frozen = {
      config: model.config,
      forward: model.forward.bind(model),
      frozen: () => ({ ...model.frozen(), forward: failing(4) }),
    };
    await expect(
      rollout(frozen, sums, { calculator: reliableCalculator, temperature: 1, greedy: true }),
    ).rejects.toThrow('forward failed');
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
  });
});
