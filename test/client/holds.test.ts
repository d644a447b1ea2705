// Who holds the run paused, row by row: the page's reducer (src/client/worker-state.ts) over the
// reader's actions, the figure's view, the tab's visibility and the worker's answers, in the
// orders they can come in. Each row: what the page sends, and what the status says.
import { describe, expect, it } from 'vitest';
import type { Command, RunBegin, WorkerEvent } from '../../src/protocol/messages';
import type { RunConfig } from '../../src/pipeline/settings';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import {
  INITIAL_STATE,
  pageTransition,
  restarted,
  type ClientEvent,
  type Holder,
  type WorkerState,
} from '../../src/client/worker-state';
import { latestIntersecting } from '../../src/ui/useHolds';

const config: RunConfig = { seed: 1, steps: 40, ...PLATE_SETTINGS };
const ready: WorkerEvent = {
  type: 'ready',
  backend: 'wasm',
  reason: 'r',
  skipped: [],
  loadMs: 10,
  checkpointHeldOut: 0.8,
  kernels: 'fused',
  engine: { webAssembly: 'simd', jsSlowdown: null },
};
const started = (runId: number, begin: RunBegin = 'running'): WorkerEvent => ({
  type: 'started',
  runId,
  config,
  stages: ['grpo'],
  from: null,
  begin,
});
const paused = (runId: number): WorkerEvent => ({ type: 'paused', runId, stage: 'grpo', step: 1 });
const resumed = (runId: number): WorkerEvent => ({ type: 'resumed', runId, stage: 'grpo', step: 1 });
const hold = (holder: Holder): ClientEvent => ({ type: 'hold', holder });
const release = (holder: Holder): ClientEvent => ({ type: 'release', holder });
const run: ClientEvent = { type: 'run', config };
const PAUSE: Command = { type: 'pause' };
const RESUME: Command = { type: 'resume' };
const START: Command = { type: 'start', config };

/** Folds events in order: the state at the end and every command sent on the way. */
function play(from: WorkerState, ...events: ClientEvent[]): { state: WorkerState; sent: Command[] } {
  let state = from;
  const sent: Command[] = [];
  for (const e of events) {
    const r = pageTransition(state, e);
    state = r.state;
    sent.push(...r.commands);
  }
  return { state, sent };
}
/** A run training in view. */
const training = play(INITIAL_STATE, ready, run, started(1)).state;

describe('who holds the run', () => {
  it('trains when nobody holds it: a Run sends a start and nothing else', () => {
    expect(play(INITIAL_STATE, ready, run)).toMatchObject({ sent: [START], state: { holders: [] } });
    expect(training).toMatchObject({ status: 'running', holders: [] });
  });

  it('pauses at once when the figure leaves the view, says so, and resumes when it comes back', () => {
    const out = play(training, hold('out of view'));
    expect(out).toMatchObject({ sent: [PAUSE], state: { status: 'pausing', holders: ['out of view'] } });
    const back = play(out.state, paused(1), release('out of view'));
    expect(back).toMatchObject({ sent: [RESUME], state: { status: 'paused', holders: [] } });
    expect(play(back.state, resumed(1)).state.status).toBe('running');
  });

  it('sends a start made out of view as pausing; the view coming back while the start waits sends the resume', () => {
    const away = play(INITIAL_STATE, ready, hold('out of view'), run);
    expect(away.sent).toEqual([PAUSE, { ...START, begin: 'pausing' }]);
    const back = play(away.state, release('out of view'));
    expect(back.sent).toEqual([RESUME]);
    // The worker heard a pausing start, then resume: the run begins running, and is shown running.
    expect(play(back.state, started(1)).state).toMatchObject({ status: 'running', holders: [] });
  });

  it('shows a start that the worker began before the pause reached it as pausing while the view is away', () => {
    const s = play(INITIAL_STATE, ready, run, hold('out of view'), started(1));
    expect(s.state.status).toBe('pausing');
    expect(play(s.state, paused(1)).state.status).toBe('paused');
  });

  it('runs on when the view comes back before the worker has paused (in before “pausing” arrives)', () => {
    const flicker = play(training, hold('out of view'), release('out of view'));
    expect(flicker).toMatchObject({ sent: [PAUSE, RESUME], state: { status: 'running', holders: [] } });
    // The worker answers the resume; or it had paused already and resumes after.
    expect(play(flicker.state, resumed(1)).state.status).toBe('running');
    expect(play(flicker.state, paused(1), resumed(1)).state.status).toBe('running');
  });

  it('keeps a second pause from the view while a resume is on its way pausing, whatever the worker says in between', () => {
    const s = play(training, hold('out of view'), release('out of view'), hold('out of view'), resumed(1));
    expect(s).toMatchObject({ sent: [PAUSE, RESUME, PAUSE], state: { status: 'pausing', holders: ['out of view'] } });
  });

  it('holds once for the tab hidden while out of view, names both, and resumes only when both let go', () => {
    const both = play(training, hold('out of view'), hold('tab hidden'), paused(1));
    expect(both).toMatchObject({ sent: [PAUSE], state: { status: 'paused', holders: ['out of view', 'tab hidden'] } });
    const tabBack = play(both.state, release('tab hidden'));
    expect(tabBack).toMatchObject({ sent: [], state: { holders: ['out of view'] } });
    expect(play(tabBack.state, release('out of view')).sent).toEqual([RESUME]);
  });

  it('takes the reader’s Pause while the view holds without a second pause, and stays paused by the reader when the view comes back', () => {
    const s = play(training, hold('out of view'), paused(1), { type: 'pause' });
    expect(s).toMatchObject({ sent: [PAUSE], state: { holders: ['reader', 'out of view'] } });
    const back = play(s.state, release('out of view'));
    expect(back).toMatchObject({ sent: [], state: { status: 'paused', holders: ['reader'] } });
  });

  it('lets every holder go on Resume: whoever pressed it sees the figure in a visible tab', () => {
    const s = play(training, { type: 'pause' }, hold('out of view'), paused(1), { type: 'resume' });
    expect(s).toMatchObject({ sent: [PAUSE, RESUME], state: { holders: [] } });
    expect(play(s.state, resumed(1)).state.status).toBe('running');
    expect(play(training, { type: 'resume' }).sent).toEqual([]); // nobody held: nothing to undo
  });

  it('drops the reader’s hold on Reset but keeps the view’s, so the next Run starts paused', () => {
    const s = play(training, hold('out of view'), { type: 'pause' }, paused(1), { type: 'clear' }, { type: 'reset' });
    expect(s).toMatchObject({ sent: [PAUSE, { type: 'reset' }], state: { status: 'ready', holders: ['out of view'] } });
    expect(play(s.state, run).sent).toEqual([{ ...START, begin: 'pausing' }]);
  });

  it('holds for the reader after a Step, so the view coming back never undoes the step’s pause', () => {
    const s = play(
      INITIAL_STATE,
      ready,
      hold('out of view'),
      { type: 'single-step', config },
      started(1, 'stepping'),
      release('out of view'),
    );
    expect(s).toMatchObject({
      sent: [PAUSE, { ...START, begin: 'stepping' }],
      state: { status: 'stepping', holders: ['reader'] },
    });
    const next = play(play(s.state, paused(1)).state, { type: 'single-step', config });
    expect(next.sent).toEqual([{ type: 'step' }]); // from Paused: one more step of the same run
  });

  it('lets a setting during a paused run run it, as Run does; while the view holds, the new run waits', () => {
    const byReader = play(training, { type: 'pause' }, paused(1), {
      type: 'configure',
      config: { ...config, faulty: true },
    });
    expect(byReader.sent).toEqual([PAUSE, { type: 'configure', config: { ...config, faulty: true } }, RESUME]);
    expect(byReader.state.holders).toEqual([]);
    const byView = play(training, hold('out of view'), { type: 'configure', config: { ...config, faulty: true } });
    expect(byView.sent).toEqual([PAUSE, { type: 'configure', config: { ...config, faulty: true } }, PAUSE]);
  });

  it('sends nothing for a hold already held or a release of one not held', () => {
    const out = play(training, hold('out of view')).state;
    expect(pageTransition(out, hold('out of view'))).toEqual({ state: out, commands: [] });
    expect(pageTransition(training, release('tab hidden'))).toEqual({ state: training, commands: [] });
  });

  it('keeps the page’s holds for a new worker, not the reader’s', () => {
    const s = play(training, { type: 'pause' }, hold('tab hidden')).state;
    expect(restarted(s)).toMatchObject({ status: 'loading', run: null, holders: ['tab hidden'] });
  });

  it('reads where the figure is from the latest entry of a delivery: a resize and back can queue “out” then “in” in one', () => {
    const figure = {} as Element;
    const other = {} as Element;
    const entry = (target: Element, isIntersecting: boolean) => ({ target, isIntersecting });
    expect(latestIntersecting([entry(figure, false), entry(figure, true)], figure)).toBe(true);
    expect(latestIntersecting([entry(figure, true), entry(figure, false), entry(other, true)], figure)).toBe(false);
    expect(latestIntersecting([entry(other, false)], figure)).toBeUndefined();
  });
});
