/**
 * The worker session's command handling, as one table: a pure function from (state, input) to
 * (next state, effects), and a pure `plan` that tells the driver (session.ts) what to do next.
 * No timers, no tensors: tests/worker/session-table.test.ts checks it row by row.
 *
 * Commands never interrupt a step; they change the state, and the driver reads the plan at the
 * next step boundary. Jobs that replace the run (start, reset) wait in a queue; a backend
 * switch always goes to the head of it, ahead of a waiting start, and never drops one. A reader's
 * questions to the agent (asks) wait in a queue of their own and are answered between steps,
 * with the weights of that moment; they never change the run.
 *
 *   input        │ effect
 *   ─────────────┼──────────────────────────────────────────────────────────────────────────
 *   start c      │ queue := switch? + [start c]          (a waiting start or reset is dropped,
 *                │                                         and a pause or step waiting with it;
 *                │                                         it begins as c.begin says, running by default)
 *   configure c  │ a start waits      → its config := c   (it keeps `from` if the pipeline holds)
 *                │ a reset waits      → queue := switch? + [reset, start c]  (afresh: the run is cleared)
 *                │ same pipeline, run live before GRPO → run.pending := c  (applied at the next boundary)
 *                │ same pipeline, run has its agent    → queue := switch? + [start c from run]
 *                │ otherwise                           → queue := switch? + [start c]
 *                │ (same pipeline: the same seed, and no change to a setting that reaches past GRPO,
 *                │  such as where the run starts: pipeline/settings.ts's `restarts`)
 *   pause        │ a start waits → it begins pausing; run running or stepping → pausing; else nothing
 *   resume       │ a start waits → it begins running; run pausing, stepping or paused → running, post resumed
 *   step         │ a start waits → it begins stepping; run running, pausing or paused → stepping,
 *                │ post stepping; else nothing (a run stepping already has its step coming)
 *   reset        │ queue := switch? + [reset]
 *   ask q        │ asks := asks + [q]
 *   lost cause   │ queue := [switch] + the other jobs     (a switch already waiting stays)
 *
 *   stepped s    │ a stepping run whose record is a step (s ≥ 1, not a stage's starting point) → pausing
 *   apply        │ GRPO began (hasAgent) → queue := [start pending from run]; else run.config := pending,
 *                │ post configured: the stage not built yet is built with it
 *   answered     │ asks := the rest
 *
 *   plan         │ not ready → wait; a job waits → take it; an ask waits → answer it;
 *                │ a live run has a pending config → apply it;
 *                │ no live run, or paused → wait; run complete → finish (completion before pause);
 *                │ pausing after its first record → pause; otherwise (running, stepping) → step
 *
 * A step is "one more record whose step is ≥ 1": from Ready the run posts its starting point and
 * its first step, then pauses; at a stage's end it posts the next stage's starting point and
 * first step. Completion still comes first: a step that ends the run ends in done.
 *
 * A setting never reaches a stage that is already built: the driver consults the plan only
 * between steps, and a GRPO stage is built inside the step that posts its step 0, so a pending
 * setting that finds hasAgent false at a boundary is still in time, and one that finds it true
 * restarts GRPO from the run's own agent.
 */
import type { AskQuestion, Command, RunBegin } from '../protocol/messages';
import { samePipeline, type RunConfig } from '../pipeline/settings';
import type { Stage } from '../pipeline/stages';
import { stagesFrom } from '../pipeline/stages';

type SlotStatus = RunBegin | 'paused' | 'done' | 'failed';

/** How a run begins once its start is taken: a pause or a step may travel with it. */

export interface RunSlot {
  id: number;
  config: RunConfig;
  stages: Stage[];
  /** The stage and step of the last posted record; step -1 before the first. */
  stage: Stage;
  step: number;
  /** Records posted so far, all stages together. */
  posted: number;
  /** The last stage's last step is posted: nothing is left to compute. */
  complete: boolean;
  /** The run's fine-tuned agent exists: it reached GRPO (or starts there). */
  hasAgent: boolean;
  status: SlotStatus;
  /** New settings asked for while the run computes, applied at the next step boundary. */
  pending: RunConfig | null;
}

export type Job =
  | { type: 'switch'; cause: string }
  /** from: the run whose fine-tuned agent this one starts GRPO from. */
  | { type: 'start'; config: RunConfig; begin: RunBegin; from: number | null }
  | { type: 'reset' };

export interface SessionState {
  lifecycle: 'new' | 'loading' | 'ready' | 'broken';
  queue: Job[];
  run: RunSlot | null;
  lastRunId: number;
  /** The reader's questions to the agent, oldest first, answered between steps. */
  asks: AskQuestion[];
}

/** @internal A test seam: exported for the command table's test. */
export type PageCommand = Exclude<Command, { type: 'init' }>;

export type Input =
  | { type: 'init' }
  | { type: 'loaded'; ok: boolean }
  | { type: 'command'; command: PageCommand }
  | { type: 'lost'; cause: string }
  /**
   * The driver took the job at the head of the queue. reuse: a start from another run's agent
   * found that agent (otherwise the whole pipeline runs).
   */
  | { type: 'took'; reuse?: boolean }
  | { type: 'stepped'; stage: Stage; step: number; complete: boolean }
  /** The driver, between steps, applies the run's pending settings. */
  | { type: 'apply' }
  /** The driver answered the oldest ask. */
  | { type: 'answered' }
  | { type: 'finished' }
  | { type: 'paused' }
  | { type: 'failed' };

export type Effect =
  | { type: 'resumed'; runId: number; stage: Stage; step: number }
  | { type: 'stepping'; runId: number; stage: Stage; step: number }
  | { type: 'configured'; runId: number; config: RunConfig }
  | { type: 'warn'; message: string };

export type Plan =
  | { type: 'wait' }
  | { type: 'take'; job: Job }
  | { type: 'step' }
  | { type: 'apply' }
  | { type: 'answer'; ask: AskQuestion }
  | { type: 'finish' }
  | { type: 'pause' };

export const INITIAL: SessionState = { lifecycle: 'new', queue: [], run: null, lastRunId: 0, asks: [] };

const LIVE: readonly SlotStatus[] = ['running', 'stepping', 'pausing', 'paused'];
export const isLive = (run: RunSlot | null): run is RunSlot => run !== null && LIVE.includes(run.status);

export function plan(s: SessionState): Plan {
  if (s.lifecycle !== 'ready') return { type: 'wait' };
  if (s.queue.length > 0) return { type: 'take', job: s.queue[0]! };
  if (s.asks.length > 0) return { type: 'answer', ask: s.asks[0]! };
  const run = s.run;
  if (isLive(run) && run.pending) return { type: 'apply' };
  if (!run || run.status === 'done' || run.status === 'failed' || run.status === 'paused') return { type: 'wait' };
  if (run.complete) return { type: 'finish' };
  // A run always posts its starting point before it honours a pause.
  if (run.status === 'pausing' && run.posted > 0) return { type: 'pause' };
  return { type: 'step' };
}

export function transition(s: SessionState, input: Input): { state: SessionState; effects: Effect[] } {
  const none = (state: SessionState) => ({ state, effects: [] as Effect[] });
  switch (input.type) {
    case 'init':
      return none({ ...s, lifecycle: 'loading' });
    case 'loaded':
      return none({ ...s, lifecycle: input.ok ? 'ready' : 'broken' });
    case 'command':
      if (s.lifecycle === 'new' || s.lifecycle === 'broken') {
        const why = s.lifecycle === 'new' ? 'before init' : 'after loading failed';
        return {
          state: s,
          effects: [{ type: 'warn', message: `training worker: ${input.command.type} ${why} was ignored` }],
        };
      }
      return command(s, input.command);
    case 'lost': {
      if (s.queue.some((j) => j.type === 'switch')) return none(s);
      return none({ ...s, queue: [{ type: 'switch', cause: input.cause }, ...s.queue] });
    }
    case 'took':
      return none(take(s, input.reuse ?? false));
    case 'stepped':
      return none(
        withRun(s, (r) => ({
          ...r,
          stage: input.stage,
          step: input.step,
          posted: r.posted + 1,
          complete: input.complete,
          hasAgent: r.hasAgent || input.stage === 'grpo',
          status: r.status === 'stepping' && input.step > 0 ? 'pausing' : r.status,
        })),
      );
    case 'apply':
      return apply(s);
    case 'answered':
      return none({ ...s, asks: s.asks.slice(1) });
    case 'finished':
      return none(withRun(s, (r) => ({ ...r, status: 'done' })));
    case 'paused':
      return none(withRun(s, (r) => ({ ...r, status: 'paused' })));
    case 'failed':
      return none(withRun(s, (r) => ({ ...r, status: 'failed' })));
    default:
      return input satisfies never;
  }
}

function command(s: SessionState, c: PageCommand): { state: SessionState; effects: Effect[] } {
  const waiting = s.queue.find((j): j is Extract<Job, { type: 'start' }> => j.type === 'start');
  const run = s.run;
  switch (c.type) {
    case 'start':
      return { state: replaceJob(s, startJob(c.config, null, c.begin)), effects: [] };
    case 'configure': {
      if (waiting) {
        const from = waiting.from !== null && samePipeline(waiting.config, c.config) ? waiting.from : null;
        return { state: replaceJob(s, { ...waiting, config: c.config, from }), effects: [] };
      }
      // The run is as good as cleared: the setting starts afresh after the reset.
      if (s.queue.some((j) => j.type === 'reset'))
        return { state: { ...s, queue: [...s.queue, startJob(c.config, null)] }, effects: [] };
      if (run && samePipeline(run.config, c.config)) {
        if (isLive(run) && !run.hasAgent) return { state: { ...s, run: { ...run, pending: c.config } }, effects: [] };
        if (run.hasAgent) return { state: replaceJob(s, startJob(c.config, run.id)), effects: [] };
      }
      return { state: replaceJob(s, startJob(c.config, null)), effects: [] };
    }
    case 'pause':
      if (waiting) return { state: replaceJob(s, { ...waiting, begin: 'pausing' }), effects: [] };
      if (run?.status === 'running' || run?.status === 'stepping')
        return { state: { ...s, run: { ...run, status: 'pausing' } }, effects: [] };
      return { state: s, effects: [] };
    case 'resume':
      if (waiting) return { state: replaceJob(s, { ...waiting, begin: 'running' }), effects: [] };
      if (run && (run.status === 'pausing' || run.status === 'paused' || run.status === 'stepping')) {
        return {
          state: { ...s, run: { ...run, status: 'running' } },
          effects: [{ type: 'resumed', runId: run.id, stage: run.stage, step: run.step }],
        };
      }
      return { state: s, effects: [] };
    case 'step':
      if (waiting) return { state: replaceJob(s, { ...waiting, begin: 'stepping' }), effects: [] };
      if (run && (run.status === 'running' || run.status === 'pausing' || run.status === 'paused')) {
        return {
          state: { ...s, run: { ...run, status: 'stepping' } },
          effects: [{ type: 'stepping', runId: run.id, stage: run.stage, step: run.step }],
        };
      }
      return { state: s, effects: [] };
    case 'ask':
      return { state: { ...s, asks: [...s.asks, c.question] }, effects: [] };
    case 'reset':
      return { state: replaceJob(s, { type: 'reset' }), effects: [] };
    default:
      return c satisfies never;
  }
}

const startJob = (config: RunConfig, from: number | null, begin: RunBegin = 'running'): Job => ({
  type: 'start',
  config,
  begin,
  from,
});

/** Pending settings at a step boundary: in place before GRPO is built, else GRPO again from the run's agent. */
function apply(s: SessionState): { state: SessionState; effects: Effect[] } {
  const run = s.run;
  if (!run?.pending) return { state: s, effects: [] };
  const config = run.pending;
  if (run.hasAgent)
    return {
      state: { ...s, run: { ...run, pending: null }, queue: [...s.queue, startJob(config, run.id)] },
      effects: [],
    };
  return {
    state: { ...s, run: { ...run, config, pending: null } },
    effects: [{ type: 'configured', runId: run.id, config }],
  };
}

/** The queue with its switch (if any) first, then `job`: any other waiting job is dropped. */
function replaceJob(s: SessionState, job: Job): SessionState {
  return { ...s, queue: [...s.queue.filter((j) => j.type === 'switch'), job] };
}

function take(s: SessionState, reuse: boolean): SessionState {
  const [job, ...rest] = s.queue;
  if (!job) return s;
  switch (job.type) {
    case 'switch':
      return { ...s, queue: rest };
    case 'reset':
      return { ...s, queue: rest, run: null };
    case 'start': {
      const id = s.lastRunId + 1;
      const stages = job.from !== null && reuse ? (['grpo'] as Stage[]) : stagesFrom(job.config.start);
      const run: RunSlot = {
        id,
        config: job.config,
        stages,
        stage: stages[0]!,
        step: -1,
        posted: 0,
        complete: false,
        hasAgent: stages[0] === 'grpo',
        status: job.begin,
        pending: null,
      };
      return { ...s, queue: rest, run, lastRunId: id };
    }
    default:
      return job satisfies never;
  }
}

function withRun(s: SessionState, f: (r: RunSlot) => RunSlot): SessionState {
  return s.run ? { ...s, run: f(s.run) } : s;
}
