// A reader's ask in the worker: the sum played by the given policy, or by the shipped agent
// decoded for the ask; a failure becomes an answer in words; no tensor outlives it either way.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCheckpointFiles, SHIPPED } from '../../src/node/checkpoint-fs';
import { GRPO } from '../../src/config';
import { createRng } from '../../src/lib/rng';
import { decodeCheckpoint } from '../../src/model/checkpoint';
import { CharModel } from '../../src/model/gpt';
import { evaluateGreedy } from '../../src/rl/evaluate';
import { answerAsk } from '../../src/worker/answer-ask';
import { TINY, useWasm } from '../tf';

beforeAll(useWasm);

const question = { id: 3, sum: { a: 57, b: 38 }, faulty: true, temperature: 1.5 as const };
const agent = () => readCheckpointFiles(SHIPPED.agent);

describe('answering an ask', () => {
  it('plays the sum with the shipped agent when no run has a model, and frees it', async () => {
    const count = tf.memory().numTensors;
    const a = await answerAsk(question, { policy: null, runId: 0, agent: agent(), grpo: GRPO, rng: createRng(1) });
    expect(tf.memory().numTensors).toBe(count);
    if ('error' in a) throw new Error(a.error);
    expect(a).toMatchObject({ id: 3, kind: 'new', by: { kind: 'shipped' }, faulty: true, temperature: 1.5 });
    expect(a.samples).toHaveLength(GRPO.episodesPerSum);
    // Greedy is what the held-out evaluation would write for this sum, whatever the stream.
    const files = agent();
    const model = decodeCheckpoint(files.manifest, files.weights, files.where);
    const [evaluated] = (await evaluateGreedy(model, [question.sum])).episodes;
    model.dispose();
    expect(a.greedy).toMatchObject({ text: evaluated!.text, reward: evaluated!.reward });
    const other = await answerAsk(question, { policy: null, runId: 0, agent: agent(), grpo: GRPO, rng: createRng(99) });
    expect('greedy' in other && other.greedy).toEqual(a.greedy);
  });

  it('plays it with the run’s model as it is, and says which step’s weights those are', async () => {
    const model = CharModel.create(TINY, 4);
    const before = await model.params['head.w']!.data();
    const a = await answerAsk(question, {
      policy: { model, stage: 'sft', step: 12 },
      runId: 2,
      agent: agent(),
      grpo: GRPO,
      rng: createRng(1),
    });
    expect(a).toMatchObject({ by: { kind: 'run', runId: 2, stage: 'sft', step: 12 } });
    expect(await model.params['head.w']!.data()).toEqual(before);
    model.dispose();
  });

  it('draws from the stream it is given: the same stream state, the same samples', async () => {
    const ctx = () => ({ policy: null, runId: 0, agent: agent(), grpo: GRPO, rng: createRng(7) });
    expect(await answerAsk(question, ctx())).toEqual(await answerAsk(question, ctx()));
  });

  it('answers with an error in words when the policy fails, and leaves no tensor behind', async () => {
    const model = CharModel.create(TINY, 4);
    model.forward = () => {
      throw new Error('forward failed');
    };
    const count = tf.memory().numTensors;
    const a = await answerAsk(question, {
      policy: { model, stage: 'grpo', step: 1 },
      runId: 1,
      agent: agent(),
      grpo: GRPO,
      rng: createRng(1),
    });
    expect(a).toEqual({ id: 3, sum: question.sum, error: 'The agent could not answer: forward failed' });
    // Abandoned (a lost device): answered at once; the shipped agent decoded for it is freed
    // once its play, still running on those weights, has settled.
    let abandoned: Promise<unknown> = Promise.resolve();
    const lose = <T>(p: Promise<T>): Promise<T> => {
      abandoned = p.catch(() => {});
      return Promise.reject(new Error('the GPU device was lost'));
    };
    const lost = await answerAsk(
      question,
      { policy: null, runId: 0, agent: agent(), grpo: GRPO, rng: createRng(1) },
      lose,
    );
    expect(lost).toMatchObject({ error: 'The agent could not answer: the GPU device was lost' });
    await abandoned;
    expect(tf.memory().numTensors).toBe(count);
    model.dispose();
  });
});
