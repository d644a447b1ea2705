// The worker session on plain JavaScript, where a step is cut into parts (model/parts.ts): it says
// how far a record got, and a reset does not wait for the step in flight to end.
import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useWasm } from '../tf';
import { config, has, session, type Event } from './session-harness';

beforeAll(useWasm);
afterEach(useWasm);

const PARTS = { backend: 'cpu' as const, progressEveryMs: 0 };

describe('a trainer session on plain JavaScript', { timeout: 180_000 }, () => {
  it('says how far each record got between its parts, before the record, and names the engine in ready', async () => {
    const t = session(PARTS);
    t.init();
    t.s.handle({ type: 'start', config: config({ steps: 1 }) });
    await t.until(has('done'));
    expect(t.of('ready')[0]!.engine).toEqual({ webAssembly: 'simd', jsSlowdown: expect.any(Number) });
    expect(t.of('ready')[0]!.engine.jsSlowdown).toBeGreaterThan(0);
    const progress = t.of('progress');
    expect(progress.length).toBeGreaterThan(10);
    for (const p of progress) {
      expect(p).toMatchObject({ runId: 1, stage: 'grpo' });
      expect(p.done).toBeLessThanOrEqual(p.of);
      // Each report comes before its record is posted.
      const record = t.events.findIndex((e) => e.type === 'step' && e.record.step === p.step);
      expect(t.events.indexOf(p)).toBeLessThan(record);
    }
    expect(new Set(progress.map((p) => `${p.step} ${p.phase}`))).toEqual(
      new Set(['0 evaluation', '1 update', '1 evaluation']),
    );
  });

  it('drops the step in flight at its next part when a reset comes, instead of computing it to the end', async () => {
    let tensors = -1;
    const t = session({
      ...PARTS,
      onEvent: (e, s) => {
        if (e.type === 'ready') tensors = tf.memory().numTensors;
        const p = e as Event<'progress'>;
        if (p.type === 'progress' && p.step === 1 && p.phase === 'update' && p.done > p.of / 4)
          s.handle({ type: 'reset' });
      },
    });
    t.init();
    t.s.handle({ type: 'start', config: config({ steps: 2 }) });
    await t.until(has('reset'));
    expect(t.steps(1)).toEqual(['grpo 0']);
    // The step was left in its update: no word of it after the reset's report, and nothing kept.
    const last = t.of('progress').at(-1)!;
    expect(last).toMatchObject({ step: 1, phase: 'update' });
    expect(t.types().slice(-1)).toEqual(['reset']);
    expect(tf.memory().numTensors).toBe(tensors);
  });
});
