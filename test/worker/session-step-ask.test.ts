// Step and Ask through the worker session in Node, with the real model: each Step gives exactly
// one more step in every stage, Run goes on after any number of them, and asks are answered
// between steps without changing a bit of the run. Driven by the session's own events.
import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AskQuestion, Command, WorkerEvent } from '../../src/protocol/messages';
import type { GrpoStepView } from '../../src/protocol/episode-view';
import type { WorkerSession } from '../../src/worker/session';
import { useWasm } from '../tf';
import { config, has, session, type Event } from './session-harness';

beforeAll(useWasm);
afterEach(async () => {
  await tf.setBackend('wasm');
});

const question = (id: number, over: Partial<AskQuestion> = {}): AskQuestion => ({
  id,
  sum: { a: 57, b: 38 },
  faulty: false,
  temperature: 1,
  ...over,
});

/** Sends the next of `commands` each time the session posts `paused`. */
function onEachPause(commands: Command[]) {
  const queue = [...commands];
  return (e: WorkerEvent, s: WorkerSession) => {
    if (e.type === 'paused' && queue.length > 0) s.handle(queue.shift()!);
  };
}

describe('Step', () => {
  it('takes one step of each stage from Ready and from paused, crosses into the next stage, and Run goes on after', async () => {
    const t = session({
      onEvent: onEachPause([
        { type: 'step' },
        { type: 'step' },
        { type: 'step' },
        { type: 'step' },
        { type: 'resume' },
      ]),
    });
    t.init();
    t.s.handle({ type: 'start', config: config({ start: 'scratch', steps: 2 }) });
    t.s.handle({ type: 'step' });
    await t.until(has('done'));
    expect(t.of('started')[0]!.begin).toBe('stepping');
    // Between pauses: what each Step (or the final Resume) produced.
    const chunks: string[][] = [[]];
    for (const e of t.events.slice(t.types().indexOf('started') + 1)) {
      if (e.type === 'step') chunks.at(-1)!.push(`${e.stage} ${e.record.step}`);
      if (e.type === 'paused') chunks.push([]);
    }
    expect(chunks).toEqual([
      ['pretrain 0', 'pretrain 1'], // from Ready: the starting point, one step
      ['pretrain 2'],
      ['sft 0', 'sft 1'], // the stage had ended: the next one's starting point and first step
      ['sft 2'],
      ['grpo 0', 'grpo 1'],
      ['grpo 2'], // Resume: the run goes on to its end
    ]);
    expect(t.of('paused').map((e) => `${e.stage} ${e.step}`)).toEqual([
      'pretrain 1',
      'pretrain 2',
      'sft 1',
      'sft 2',
      'grpo 1',
    ]);
    expect(t.of('stepping').map((e) => `${e.stage} ${e.step}`)).toEqual(['pretrain 1', 'pretrain 2', 'sft 1', 'sft 2']);
    expect(t.of('resumed')).toHaveLength(1);
  });

  it('gives the same numbers as a run that never paused', async () => {
    const grpo = (events: WorkerEvent[]) =>
      events.flatMap((e) =>
        e.type === 'step' && e.stage === 'grpo' ? [[e.record.heldOut, e.record.meanReward, e.record.loss]] : [],
      );
    const plain = session();
    plain.init();
    plain.s.handle({ type: 'start', config: config({ steps: 3 }) });
    await plain.until(has('done'));
    const stepped = session({ onEvent: onEachPause([{ type: 'step' }, { type: 'step' }]) });
    stepped.init();
    stepped.s.handle({ type: 'start', config: config({ steps: 3 }) });
    stepped.s.handle({ type: 'step' });
    await stepped.until(has('done'));
    expect(stepped.of('paused')).toHaveLength(2);
    expect(grpo(stepped.events)).toEqual(grpo(plain.events));
  });
});

describe('Ask', () => {
  it('is answered by the shipped agent before any run, greedily and with a sampled group, and says where the sum stands', async () => {
    const t = session();
    t.init();
    await t.until(has('ready'));
    const tensors = tf.memory().numTensors;
    t.s.handle({ type: 'ask', question: question(1) });
    t.s.handle({ type: 'ask', question: question(2, { sum: { a: 10, b: 99 }, faulty: true, temperature: 1.5 }) });
    await t.until(has('answer', 2));
    const [a, b] = t.of('answer').map((e) => e.answer);
    if (!a || 'error' in a || !b || 'error' in b) throw new Error(`no answer: ${JSON.stringify([a, b])}`);
    expect(a).toMatchObject({ id: 1, by: { kind: 'shipped' }, faulty: false, temperature: 1 });
    expect(a.greedy.text.startsWith('^57+38=')).toBe(true);
    expect(a.samples).toHaveLength(4); // the harness's group size
    for (const e of [a.greedy, ...a.samples]) {
      expect(e.authors).toHaveLength(e.text.length);
      expect([0, 1]).toContain(e.reward);
    }
    expect(b).toMatchObject({ id: 2, kind: 'new', demonstration: false, faulty: true, temperature: 1.5 });
    expect(tf.memory().numTensors).toBe(tensors); // the shipped agent was decoded for the ask and freed
  });

  it('is answered between steps by the run’s weights of that moment, and the run ends bit for bit as it would without asks', async () => {
    // Tensors are counted from each session's ready: an earlier session's model is still held.
    const base = { plain: 0, asked: 0 };
    const plain = session({ onEvent: (e) => e.type === 'ready' && (base.plain = tf.memory().numTensors) });
    plain.init();
    plain.s.handle({ type: 'start', config: config({ steps: 3 }) });
    await plain.until(has('done'));

    let id = 0;
    const asked = session({
      onEvent: (e, s) => {
        if (e.type === 'ready') base.asked = tf.memory().numTensors;
        if (e.type === 'step' || e.type === 'started')
          s.handle({ type: 'ask', question: question(++id, { faulty: id % 2 === 0 }) });
      },
    });
    asked.init();
    asked.s.handle({ type: 'ask', question: question(++id) });
    asked.s.handle({ type: 'start', config: config({ steps: 3 }) });
    await asked.until((ev) => has('done')(ev) && ev.filter((e) => e.type === 'answer').length === id);
    asked.s.handle({ type: 'ask', question: question(++id) }); // finished: the run's final weights
    await asked.until(has('answer', id));

    const answers = asked.of('answer').map((e) => e.answer);
    expect(answers.map((a) => ('error' in a ? a.error : a.by))).toEqual([
      { kind: 'shipped' }, // before the run
      { kind: 'shipped' }, // started, no record yet
      ...[0, 1, 2, 3].map((step) => ({ kind: 'run', runId: 1, stage: 'grpo', step })),
      { kind: 'run', runId: 1, stage: 'grpo', step: 3 },
    ]);
    // Each answer came right after the step it was asked at, before the next one (and before done).
    const order = asked.events
      .filter((e) => e.type === 'step' || e.type === 'answer' || e.type === 'done')
      .map((e) => e.type[0])
      .join('');
    expect(order).toBe('aasasasasada');
    expect(same(asked.of('step'), base.asked)).toEqual(same(plain.of('step'), base.plain));
    expect(asked.of('done')[0]!.summary).toEqual({ ...plain.of('done')[0]!.summary, seconds: expect.any(Number) });
  });
});

/** Everything a step record says, but its times: numbers, episodes, the push, the tensor count. */
function same(steps: Event<'step'>[], tensorsAtReady: number) {
  return steps.map((e) => {
    const r = e.record as GrpoStepView;
    const { timings: _, timeSplit: __, episodes, ...figures } = r;
    return {
      figures,
      tensors: e.memory.numTensors - tensorsAtReady,
      episodes: episodes.map((x) => ({ ...x, logp: x.logp && [Array.from(x.logp.before), Array.from(x.logp.after)] })),
    };
  });
}
