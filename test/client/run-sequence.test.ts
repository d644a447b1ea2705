// "Run every length" through the page's own reducer: each length starts as a Run does, one after
// another, and whatever the reader does midway — a setting, a pause, Reset, another run — is
// followed or ends it, never left hanging.
import { describe, expect, it } from 'vitest';
import { newSequence, sentAt, sequenceStep, type RunSequence } from '../../src/client/run-sequence';
import { INITIAL_STATE, pageTransition, type ClientEvent, type WorkerState } from '../../src/client/worker-state';
import type { EpisodeKind } from '../../src/env/episode';
import { PLATE_SETTINGS, type RunConfig } from '../../src/pipeline/settings';
import type { RunSummary } from '../../src/rl/summary';

const LENGTHS: EpisodeKind[] = ['one-call', 'two-calls', 'three-calls'];
const config = (episode: EpisodeKind, over: Partial<RunConfig> = {}): RunConfig => ({
  ...PLATE_SETTINGS,
  episode,
  agent: 'three-calls',
  seed: 4,
  steps: 3,
  ...over,
});

/** A page and a sequence, driven as LiveFigure drives them: after each change, ask the sequence. */
function page() {
  let state: WorkerState = { ...INITIAL_STATE, status: 'ready' };
  let seq: RunSequence = newSequence('three-calls', LENGTHS);
  const started: EpisodeKind[] = [];
  let over: Partial<RunConfig> = {};
  const ask = () => {
    for (;;) {
      const { next, start } = sequenceStep(seq, state);
      seq = next;
      if (!start) return;
      const latest = state.run?.runId ?? -1;
      state = pageTransition(state, { type: 'run', config: config(start, over) }).state;
      seq = sentAt(seq, latest);
      started.push(start);
    }
  };
  const fold = (e: ClientEvent) => {
    state = pageTransition(state, e).state;
    ask();
  };
  ask();
  return {
    fold,
    settings: (o: Partial<RunConfig>) => (over = o),
    get seq() {
      return seq;
    },
    get state() {
      return state;
    },
    started,
  };
}

const started = (runId: number, c: RunConfig): ClientEvent => ({
  type: 'started',
  runId,
  config: c,
  stages: ['grpo'],
  from: null,
  begin: 'running',
});
const done = (runId: number): ClientEvent => ({
  type: 'done',
  runId,
  summary: {} as RunSummary,
  sftHeldOut: null,
  agentDigest: null,
  stageSeconds: {},
});

describe('running every length', () => {
  it('starts one call, then two calls when the first run is done, then three, and ends done', () => {
    const p = page();
    expect(p.started).toEqual(['one-call']);
    p.fold(started(1, config('one-call')));
    expect(p.seq.runIds).toEqual([1]);
    p.fold({ type: 'pause' });
    p.fold({ type: 'resume' });
    expect(p.started).toEqual(['one-call']); // a pause holds the same run
    p.fold(done(1));
    expect(p.started).toEqual(['one-call', 'two-calls']);
    p.fold(started(2, config('two-calls')));
    p.fold(done(2));
    expect(p.started).toEqual(LENGTHS);
    p.fold(started(3, config('three-calls')));
    p.fold(done(3));
    expect(p.seq).toMatchObject({ state: 'done', runIds: [1, 2, 3], index: 2 });
  });

  it('takes each next length with the settings as they are when it starts', () => {
    const p = page();
    p.fold(started(1, config('one-call')));
    p.settings({ faulty: true });
    p.fold(done(1));
    expect(p.state.startSent).toBe(true);
    p.fold(started(2, config('two-calls', { faulty: true })));
    expect(p.seq.runIds).toEqual([1, 2]);
  });

  it('follows GRPO restarted by a setting changed midway, a new run of the same length', () => {
    const p = page();
    p.fold(started(1, config('one-call')));
    p.fold({ type: 'configure', config: config('one-call', { faulty: true }) });
    p.fold(started(2, config('one-call', { faulty: true })));
    expect(p.seq).toMatchObject({ state: 'running', runIds: [2] });
    p.fold(done(2));
    expect(p.started).toEqual(['one-call', 'two-calls']);
  });

  it('stops when the reader starts another length or agent, resets, or the worker dies or errs', () => {
    const other = page();
    other.fold(started(1, config('one-call')));
    other.fold(started(2, { ...config('one-call'), agent: 'own' })); // the plate's agent: another run
    expect(other.seq.state).toBe('stopped');

    const reset = page();
    reset.fold(started(1, config('one-call')));
    reset.fold({ type: 'clear' });
    reset.fold({ type: 'reset' });
    expect(reset.seq.state).toBe('stopped');

    // Reset before the first run even began: its start is dropped, and so is the sequence.
    const early = page();
    early.fold({ type: 'clear' });
    expect(early.seq.state).toBe('stopped');

    const dead = page();
    dead.fold(started(1, config('one-call')));
    dead.fold({ type: 'died', message: 'gone' });
    expect(dead.seq.state).toBe('stopped');

    const error = page();
    error.fold(started(1, config('one-call')));
    error.fold({ type: 'error', runId: 1, kind: 'non-finite-loss', message: 'NaN' });
    expect(error.seq.state).toBe('stopped');
    expect(error.started).toEqual(['one-call']);
  });

  it('waits for the page to show its start: the page redraws at its own pace, a frame late', () => {
    const q = sentAt(newSequence('three-calls', LENGTHS), -1);
    const before = { ...INITIAL_STATE, status: 'ready' as const }; // drawn before the start was folded
    expect(sequenceStep(q, before).next.state).toBe('running');
    const shown = sequenceStep(q, { ...before, startSent: true }).next;
    expect(shown.shown).toBe(true);
    expect(sequenceStep(shown, before).next.state).toBe('stopped'); // shown, then dropped: a Reset
  });

  it('waits for a loading worker before its first start, as a Run pressed then does', () => {
    let seq = newSequence('three-calls', LENGTHS);
    const loading = { ...INITIAL_STATE };
    expect(sequenceStep(seq, loading).start).toBeNull();
    seq = sequenceStep(seq, { ...loading, status: 'ready' }).next;
    expect(sequenceStep(seq, { ...loading, status: 'ready' }).start).toBe('one-call');
  });
});
