// The session's command table, row by row: pure inputs in, state and plan out, no timers.
import { describe, expect, it } from 'vitest';
import type { RunConfig } from '../../src/pipeline/settings';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import {
  INITIAL,
  plan,
  transition,
  type Input,
  type PageCommand,
  type SessionState,
} from '../../src/worker/session-table';
import type { Stage } from '../../src/pipeline/stages';

const config = (over: Partial<RunConfig> = {}): RunConfig => ({
  seed: 1,
  steps: 3,
  ...PLATE_SETTINGS,
  ...over,
});
const cmd = (command: PageCommand): Input => ({ type: 'command', command });
const start = (over: Partial<RunConfig> = {}) => cmd({ type: 'start', config: config(over) });
const configure = (over: Partial<RunConfig> = {}) => cmd({ type: 'configure', config: config(over) });
const stepped = (stage: Stage, step: number, complete = false): Input => ({
  type: 'stepped',
  stage,
  step,
  complete,
});

/** Folds inputs from a ready session; returns the state and every effect, in order. */
function run(inputs: Input[], from: SessionState = { ...INITIAL, lifecycle: 'ready' }) {
  let state = from;
  const effects = [];
  for (const i of inputs) {
    const out = transition(state, i);
    state = out.state;
    effects.push(...out.effects);
  }
  return { state, effects, plan: plan(state) };
}

describe('the session table', () => {
  it('waits while loading, keeps commands until it is ready, then takes them in order', () => {
    const loading = run([start()], { ...INITIAL, lifecycle: 'loading' });
    expect(loading.plan).toEqual({ type: 'wait' });
    const ready = run([{ type: 'loaded', ok: true }], loading.state);
    expect(ready.plan).toMatchObject({ type: 'take', job: { type: 'start', begin: 'running' } });
  });

  it('warns about commands before init and after a failed load, and changes nothing', () => {
    const before = run([start()], INITIAL);
    expect(before.state).toEqual(INITIAL);
    expect(before.effects).toEqual([{ type: 'warn', message: 'training worker: start before init was ignored' }]);
    const broken = run([start()], { ...INITIAL, lifecycle: 'broken' });
    expect(broken.effects[0]).toMatchObject({ message: expect.stringMatching(/after loading failed/) });
  });

  it('gives a started run its stages, and steps it until its last record is posted', () => {
    const r = run([start({ start: 'scratch' }), { type: 'took' }]);
    expect(r.state.run).toMatchObject({
      id: 1,
      stages: ['pretrain', 'sft', 'grpo'],
      status: 'running',
      hasAgent: false,
    });
    expect(r.plan).toEqual({ type: 'step' });
    const last = run([stepped('grpo', 3, true)], r.state);
    expect(last.plan).toEqual({ type: 'finish' });
    expect(run([{ type: 'finished' }], last.state).plan).toEqual({ type: 'wait' });
  });

  it('decides completion before a pause: a pause during the last step ends in finish', () => {
    const r = run([
      start(),
      { type: 'took' },
      stepped('grpo', 0),
      stepped('grpo', 1),
      cmd({ type: 'pause' }),
      stepped('grpo', 3, true),
    ]);
    expect(r.plan).toEqual({ type: 'finish' });
  });

  it('honours a pause only after the run posted its starting point', () => {
    const r = run([start(), { type: 'took' }, cmd({ type: 'pause' })]);
    expect(r.state.run!.status).toBe('pausing');
    expect(r.plan).toEqual({ type: 'step' });
    const after = run([stepped('grpo', 0)], r.state);
    expect(after.plan).toEqual({ type: 'pause' });
    expect(run([{ type: 'paused' }], after.state).plan).toEqual({ type: 'wait' });
  });

  it('lets a pause travel with the start it belongs to, and a reset drop both', () => {
    const paused = run([start(), cmd({ type: 'pause' })]);
    expect(paused.plan).toMatchObject({ type: 'take', job: { type: 'start', begin: 'pausing' } });
    const reset = run([cmd({ type: 'reset' }), { type: 'took' }, start()], paused.state);
    expect(reset.state.queue).toEqual([{ type: 'start', config: config(), begin: 'running', from: null }]);
  });

  it('resumes a pausing or paused run and says so; a waiting start just loses its pause', () => {
    const base = run([start(), { type: 'took' }, stepped('grpo', 0), stepped('grpo', 1), cmd({ type: 'pause' })]);
    const resumed = run([cmd({ type: 'resume' })], base.state);
    expect(resumed.state.run!.status).toBe('running');
    expect(resumed.effects).toEqual([{ type: 'resumed', runId: 1, stage: 'grpo', step: 1 }]);
    const waiting = run([start(), cmd({ type: 'pause' }), cmd({ type: 'resume' })]);
    expect(waiting.state.queue[0]).toMatchObject({ begin: 'running' });
    expect(waiting.effects).toEqual([]);
  });

  it('keeps only the latest start or reset waiting', () => {
    const r = run([start({ seed: 1 }), cmd({ type: 'reset' }), start({ seed: 2 })]);
    expect(r.state.queue).toEqual([{ type: 'start', config: config({ seed: 2 }), begin: 'running', from: null }]);
  });

  it('puts a backend switch ahead of a waiting start instead of dropping it', () => {
    const r = run([
      start(),
      { type: 'took' },
      stepped('grpo', 0),
      configure({ faulty: true }),
      { type: 'lost', cause: 'gone' },
    ]);
    expect(r.state.queue.map((j) => j.type)).toEqual(['switch', 'start']);
    expect(r.plan).toEqual({ type: 'take', job: { type: 'switch', cause: 'gone' } });
    const afterSwitch = run([{ type: 'took' }], r.state);
    expect(afterSwitch.plan).toMatchObject({ type: 'take', job: { type: 'start', config: { faulty: true } } });
  });

  it('keeps one switch when the backend is lost twice before it runs, and a later start stays behind it', () => {
    const r = run([{ type: 'lost', cause: 'first' }, { type: 'lost', cause: 'second' }, start()]);
    expect(r.state.queue).toEqual([
      { type: 'switch', cause: 'first' },
      { type: 'start', config: config(), begin: 'running', from: null },
    ]);
  });

  it('keeps a setting asked for before GRPO until the next step boundary, then takes it in place and says so', () => {
    const asked = run([
      start({ start: 'pretrained' }),
      { type: 'took' },
      stepped('sft', 0),
      configure({ start: 'pretrained', faulty: true }),
    ]);
    expect(asked.state.queue).toEqual([]);
    expect(asked.state.run).toMatchObject({
      config: { faulty: false },
      pending: config({ start: 'pretrained', faulty: true }),
    });
    expect(asked.effects).toEqual([]);
    expect(asked.plan).toEqual({ type: 'apply' });
    const applied = run([{ type: 'apply' }], asked.state);
    expect(applied.state.run).toMatchObject({ config: { faulty: true }, pending: null });
    expect(applied.effects).toEqual([
      { type: 'configured', runId: 1, config: config({ start: 'pretrained', faulty: true }) },
    ]);
    expect(applied.plan).toEqual({ type: 'step' });
    // A paused run takes it too: the driver is between steps.
    const paused = run([
      start({ start: 'pretrained' }),
      { type: 'took' },
      stepped('sft', 0),
      cmd({ type: 'pause' }),
      { type: 'paused' },
      configure({ start: 'pretrained', faulty: true }),
    ]);
    expect(paused.plan).toEqual({ type: 'apply' });
  });

  it('restarts GRPO instead when the step in flight as the setting came built the GRPO stage', () => {
    const r = run([
      start({ start: 'pretrained' }),
      { type: 'took' },
      stepped('sft', 200),
      configure({ start: 'pretrained', faulty: true }),
      stepped('grpo', 0),
      { type: 'apply' },
    ]);
    expect(r.effects).toEqual([]);
    expect(r.state.run).toMatchObject({ id: 1, config: { faulty: false }, pending: null });
    expect(r.state.queue).toEqual([
      { type: 'start', config: config({ start: 'pretrained', faulty: true }), begin: 'running', from: 1 },
    ]);
  });

  it('starts afresh when a setting changes while a reset waits: the cleared run is not reused', () => {
    const r = run([start(), { type: 'took' }, stepped('grpo', 0), cmd({ type: 'reset' }), configure({ faulty: true })]);
    expect(r.state.queue).toEqual([
      { type: 'reset' },
      { type: 'start', config: config({ faulty: true }), begin: 'running', from: null },
    ]);
  });

  it('restarts GRPO from the run’s own agent when a setting changes in or after GRPO', () => {
    const inGrpo = run([
      start({ start: 'scratch' }),
      { type: 'took' },
      stepped('sft', 200),
      stepped('grpo', 0),
      configure({ start: 'scratch', faulty: true }),
    ]);
    expect(inGrpo.state.queue).toEqual([
      { type: 'start', config: config({ start: 'scratch', faulty: true }), begin: 'running', from: 1 },
    ]);
    const took = run([{ type: 'took', reuse: true }], inGrpo.state);
    expect(took.state.run).toMatchObject({ id: 2, stages: ['grpo'], hasAgent: true });
    const finished = run([
      start(),
      { type: 'took' },
      stepped('grpo', 3, true),
      { type: 'finished' },
      configure({ faulty: true }),
    ]);
    expect(finished.state.queue[0]).toMatchObject({ type: 'start', from: 1 });
  });

  it('runs the whole pipeline when the agent to reuse is gone, or the start or seed changed', () => {
    const gone = run([
      start({ start: 'scratch' }),
      { type: 'took' },
      stepped('grpo', 0),
      configure({ start: 'scratch', faulty: true }),
      { type: 'took', reuse: false },
    ]);
    expect(gone.state.run!.stages).toEqual(['pretrain', 'sft', 'grpo']);
    const seed = run([start(), { type: 'took' }, stepped('grpo', 0), configure({ seed: 9 })]);
    expect(seed.state.queue[0]).toMatchObject({ from: null });
  });

  it('changes a waiting start’s config, and forgets the agent it would reuse when the pipeline changes', () => {
    const r = run([
      start(),
      { type: 'took' },
      stepped('grpo', 0),
      configure({ faulty: true }),
      configure({ start: 'pretrained', faulty: true }),
    ]);
    expect(r.state.queue).toEqual([
      { type: 'start', config: config({ start: 'pretrained', faulty: true }), begin: 'running', from: null },
    ]);
  });

  it('leaves a finished or failed run alone on pause and resume', () => {
    const done = run([
      start(),
      { type: 'took' },
      stepped('grpo', 3, true),
      { type: 'finished' },
      cmd({ type: 'pause' }),
      cmd({ type: 'resume' }),
    ]);
    expect(done.state.run!.status).toBe('done');
    expect(done.effects).toEqual([]);
    const failed = run([start(), { type: 'took' }, { type: 'failed' }, cmd({ type: 'resume' })]);
    expect(failed.state.run!.status).toBe('failed');
    expect(failed.plan).toEqual({ type: 'wait' });
  });
});

describe('the session table: Step', () => {
  const pausedAt = (stage: Stage, step: number, over: Partial<RunConfig> = {}) =>
    run([
      start(over),
      { type: 'took' },
      stepped(stage, 0),
      ...(step > 0 ? [stepped(stage, step)] : []),
      cmd({ type: 'pause' }),
      { type: 'paused' },
    ]);

  it('from a paused run takes exactly one more step, says it is stepping, then pauses', () => {
    const paused = pausedAt('grpo', 1);
    const s = run([cmd({ type: 'step' })], paused.state);
    expect(s.effects).toEqual([{ type: 'stepping', runId: 1, stage: 'grpo', step: 1 }]);
    expect(s.state.run!.status).toBe('stepping');
    expect(s.plan).toEqual({ type: 'step' });
    const after = run([stepped('grpo', 2)], s.state);
    expect(after.plan).toEqual({ type: 'pause' });
    expect(run([{ type: 'paused' }], after.state).plan).toEqual({ type: 'wait' });
  });

  it('from Ready starts the run with it: the starting point and the first step, then a pause', () => {
    const s = run([start({ start: 'scratch' }), cmd({ type: 'step' })]);
    expect(s.plan).toMatchObject({ type: 'take', job: { type: 'start', begin: 'stepping' } });
    const taken = run([{ type: 'took' }], s.state);
    expect(taken.state.run!.status).toBe('stepping');
    const zero = run([stepped('pretrain', 0)], taken.state);
    expect(zero.plan).toEqual({ type: 'step' }); // a starting point is not a step
    expect(run([stepped('pretrain', 1)], zero.state).plan).toEqual({ type: 'pause' });
  });

  it('from Ready as one command (start with step): the run pauses after its first step, however soon the start is taken', () => {
    const taken = run([
      cmd({ type: 'start', config: config({ start: 'pretrained' }), begin: 'stepping' }),
      { type: 'took' },
    ]);
    expect(taken.state.run!.status).toBe('stepping');
    const zero = run([stepped('sft', 0)], taken.state);
    expect(zero.plan).toEqual({ type: 'step' });
    expect(run([stepped('sft', 1)], zero.state).plan).toEqual({ type: 'pause' });
  });

  it('a step sent apart from its start lands after whatever the run has stepped by then (why the page sends one command)', () => {
    const ran = run([
      start({ start: 'pretrained' }),
      { type: 'took' },
      stepped('sft', 0),
      stepped('sft', 1),
      cmd({ type: 'step' }),
    ]);
    expect(ran.plan).toEqual({ type: 'step' });
    expect(run([stepped('sft', 2)], ran.state).plan).toEqual({ type: 'pause' }); // one step late
  });

  it('at the end of a stage crosses into the next: its starting point and its first step', () => {
    const s = run([cmd({ type: 'step' }), stepped('grpo', 0)], pausedAt('sft', 200, { start: 'pretrained' }).state);
    expect(s.plan).toEqual({ type: 'step' });
    expect(run([stepped('grpo', 1)], s.state).plan).toEqual({ type: 'pause' });
  });

  it('ends in done when its step is the run’s last: completion comes before the pause', () => {
    const s = run([cmd({ type: 'step' }), stepped('grpo', 3, true)], pausedAt('grpo', 2).state);
    expect(s.plan).toEqual({ type: 'finish' });
  });

  it('leaves Run to resume normally after any number of steps', () => {
    let s = pausedAt('grpo', 0);
    for (const n of [1, 2]) s = run([cmd({ type: 'step' }), stepped('grpo', n), { type: 'paused' }], s.state);
    const resumed = run([cmd({ type: 'resume' })], s.state);
    expect(resumed.effects).toEqual([{ type: 'resumed', runId: 1, stage: 'grpo', step: 2 }]);
    expect(run([stepped('grpo', 3)], resumed.state).plan).toEqual({ type: 'step' }); // running goes on
    // Resume during a step turns it into a run too.
    const midStep = run([cmd({ type: 'step' }), cmd({ type: 'resume' }), stepped('grpo', 3)], s.state);
    expect(midStep.state.run!.status).toBe('running');
  });

  it('does nothing more while a step is on its way; a pause then pauses after the next record', () => {
    const stepping = run([cmd({ type: 'step' })], pausedAt('grpo', 1).state);
    const twice = run([cmd({ type: 'step' })], stepping.state);
    expect(twice.state).toEqual(stepping.state);
    expect(twice.effects).toEqual([]);
    expect(run([cmd({ type: 'pause' })], stepping.state).state.run!.status).toBe('pausing');
  });

  it('from a running run pauses after the step in flight; with no live run it does nothing', () => {
    const running = run([start(), { type: 'took' }, stepped('grpo', 0), stepped('grpo', 1)]);
    const s = run([cmd({ type: 'step' }), stepped('grpo', 2)], running.state);
    expect(s.plan).toEqual({ type: 'pause' });
    const done = run([stepped('grpo', 3, true), { type: 'finished' }, cmd({ type: 'step' })], running.state);
    expect(done.state.run!.status).toBe('done');
    expect(done.effects).toEqual([]);
    const none = run([cmd({ type: 'step' })]);
    expect(none.state).toEqual({ ...INITIAL, lifecycle: 'ready' });
  });

  it('is dropped with its start by a reset, like a pause', () => {
    const s = run([start(), cmd({ type: 'step' }), cmd({ type: 'reset' }), { type: 'took' }, start()]);
    expect(s.state.queue).toEqual([{ type: 'start', config: config(), begin: 'running', from: null }]);
  });
});

describe('the session table: asks', () => {
  const q = (id: number) => ({ id, sum: { a: 57, b: 38 }, faulty: false, temperature: 1 as const });
  const ask = (id: number) => cmd({ type: 'ask', question: q(id) });

  it('answers asks at the next step boundary, oldest first, before the next step, and leaves the run as it was', () => {
    const running = run([start(), { type: 'took' }, stepped('grpo', 0), stepped('grpo', 1)]);
    const asked = run([ask(1), ask(2)], running.state);
    expect(asked.state.run).toEqual(running.state.run);
    expect(asked.state.queue).toEqual(running.state.queue);
    expect(asked.effects).toEqual([]);
    expect(asked.plan).toEqual({ type: 'answer', ask: q(1) });
    const one = run([{ type: 'answered' }], asked.state);
    expect(one.plan).toEqual({ type: 'answer', ask: q(2) });
    const both = run([{ type: 'answered' }], one.state);
    expect(both.plan).toEqual({ type: 'step' });
    expect(both.state).toEqual(running.state);
  });

  it('are answered with no run, paused, finished, or after a failure, and then the session waits again', () => {
    const cases = [
      run([]),
      run([start(), { type: 'took' }, stepped('grpo', 0), cmd({ type: 'pause' }), { type: 'paused' }]),
      run([start(), { type: 'took' }, stepped('grpo', 3, true), { type: 'finished' }]),
      run([start(), { type: 'took' }, { type: 'failed' }]),
    ];
    for (const c of cases) {
      const s = run([ask(7)], c.state);
      expect(s.plan).toEqual({ type: 'answer', ask: q(7) });
      expect(run([{ type: 'answered' }], s.state).plan).toEqual({ type: 'wait' });
    }
  });

  it('wait while the trainer loads and behind a job: a backend switch or a start goes first', () => {
    const loading = run([ask(1)], { ...INITIAL, lifecycle: 'loading' });
    expect(loading.plan).toEqual({ type: 'wait' });
    expect(run([{ type: 'loaded', ok: true }], loading.state).plan).toEqual({ type: 'answer', ask: q(1) });
    const behind = run([ask(1), { type: 'lost', cause: 'gone' }, start()]);
    expect(behind.plan).toMatchObject({ type: 'take', job: { type: 'switch' } });
    const afterJobs = run([{ type: 'took' }, { type: 'took' }], behind.state);
    expect(afterJobs.plan).toEqual({ type: 'answer', ask: q(1) });
  });

  it('are kept by a reset and a new start (they ask the policy, not the run)', () => {
    const s = run([start(), { type: 'took' }, stepped('grpo', 0), ask(3), cmd({ type: 'reset' }), start({ seed: 2 })]);
    expect(s.state.asks).toEqual([q(3)]);
  });
});
