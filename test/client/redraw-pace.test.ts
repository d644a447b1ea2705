import { describe, expect, it } from 'vitest';
import { RECORD_INTERVAL_MS, RedrawPace, type PaceClock } from '../../src/client/redraw-pace';
import { INITIAL_STATE, pageTransitions, type ClientEvent } from '../../src/client/worker-state';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import type { SupervisedRecord } from '../../src/agent/stage';

/** A clock moved by hand: frames run when the test says a frame happens, timers when time passes them. */
function manualClock() {
  let t = 0;
  let id = 0;
  const frames = new Map<number, () => void>();
  const timers = new Map<number, { at: number; run: () => void }>();
  const clock: PaceClock = {
    now: () => t,
    frame: (run) => (frames.set(++id, run), id),
    cancelFrame: (i) => void frames.delete(i),
    after: (ms, run) => (timers.set(++id, { at: t + ms, run }), id),
    cancelAfter: (i) => void timers.delete(i),
  };
  return {
    clock,
    /** Moves time on by `ms`, running the timers it passes, then one animation frame. */
    advance(ms: number) {
      t += ms;
      for (const [i, timer] of [...timers]) {
        if (timer.at > t) continue;
        timers.delete(i);
        timer.run();
      }
      const due = [...frames.values()];
      frames.clear();
      due.forEach((f) => f());
    },
  };
}

const config = { seed: 1, steps: 40, ...PLATE_SETTINGS, start: 'scratch' as const };
const record = (step: number): SupervisedRecord => ({
  stage: 'pretrain',
  step,
  steps: 100,
  loss: 1 / (step + 1),
  heldOut: null,
  worksheet: null,
  ms: 50,
});
const step = (n: number): ClientEvent => ({
  type: 'step',
  runId: 1,
  config,
  stage: 'pretrain',
  record: record(n),
  memory: { numTensors: 30, numBytes: 1 },
});
const started: ClientEvent = {
  type: 'started',
  runId: 1,
  config,
  stages: ['pretrain', 'sft', 'grpo'],
  from: null,
  begin: 'running',
};

describe('the redraw pace', () => {
  it('folds a record that comes long after the last fold at the next frame', () => {
    const c = manualClock();
    const batches: ClientEvent[][] = [];
    const pace = new RedrawPace((b) => batches.push(b), c.clock);
    c.advance(1000);
    pace.push(step(0));
    c.advance(16);
    expect(batches).toEqual([[step(0)]]);
  });

  it(`folds records that come every 50 ms at most once per ${RECORD_INTERVAL_MS} ms, in order, none lost`, () => {
    const c = manualClock();
    const batches: ClientEvent[][] = [];
    const pace = new RedrawPace((b) => batches.push(b), c.clock);
    pace.push(started);
    c.advance(16);
    for (let n = 0; n < 20; n++) {
      pace.push(step(n));
      c.advance(50);
    }
    c.advance(RECORD_INTERVAL_MS);
    expect(batches.flat()).toEqual([started, ...Array.from({ length: 20 }, (_, n) => step(n))]);
    // 20 records over a second: four or five folds, not twenty.
    expect(batches.length - 1).toBeLessThanOrEqual(Math.ceil((20 * 50) / RECORD_INTERVAL_MS) + 1);
  });

  it('folds any other event at the next frame, with the records queued before it', () => {
    const c = manualClock();
    const batches: ClientEvent[][] = [];
    const pace = new RedrawPace((b) => batches.push(b), c.clock);
    pace.push(step(0));
    c.advance(16);
    pace.push(step(1));
    c.advance(16); // within the interval: the record waits
    expect(batches).toHaveLength(1);
    const paused: ClientEvent = { type: 'paused', runId: 1, stage: 'pretrain', step: 1 };
    pace.push(paused);
    c.advance(16);
    expect(batches).toEqual([[step(0)], [step(1), paused]]);
  });

  it('ends in the state a fold per record gives', () => {
    const c = manualClock();
    const events = [started, ...Array.from({ length: 30 }, (_, n) => step(n))];
    let paced = INITIAL_STATE;
    const pace = new RedrawPace((b) => (paced = pageTransitions(paced, b)), c.clock);
    for (const e of events) {
      pace.push(e);
      c.advance(37);
    }
    c.advance(RECORD_INTERVAL_MS);
    const oneByOne = events.reduce((s, e) => pageTransitions(s, [e]), INITIAL_STATE);
    expect(paced).toEqual(oneByOne);
  });

  it('flush folds what is queued at once; cancel leaves it queued', () => {
    const c = manualClock();
    const batches: ClientEvent[][] = [];
    const pace = new RedrawPace((b) => batches.push(b), c.clock);
    pace.push(step(0));
    pace.cancel();
    c.advance(1000);
    expect(batches).toEqual([]);
    pace.flush();
    expect(batches).toEqual([[step(0)]]);
  });
});
