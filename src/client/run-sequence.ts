/**
 * "Run every length": one agent on each length it plays, one run after another, each started by
 * the page's ordinary Run (the same worker, the same reducer). A small state machine over what
 * the page already knows of its runs, asked after every change of the worker's state:
 *
 *   the page sees                                │ the sequence
 *   ─────────────────────────────────────────────┼────────────────────────────────────────────
 *   its length not sent yet, the worker can start │ start that length (sent)
 *   a new run of its length and agent             │ that run is the length's (a setting changed
 *                                                 │  midway restarts GRPO as a new run: followed)
 *   a new run of another length or agent          │ stopped: the reader started something else
 *   its run ended done                            │ the next length, or done after the last
 *   its run gone, its start dropped once shown,   │ stopped
 *    an error, the worker stopped, or Reset       │
 *
 * Pause and Resume change nothing here: the run they hold is still the length's.
 */
import type { EpisodeKind } from '../env/episode';
import { agentOf } from '../env/world';
import type { WorkerState } from './worker-state';

export interface RunSequence {
  agent: EpisodeKind;
  /** The lengths, in the order they run. */
  lengths: readonly EpisodeKind[];
  /** The length training now, or the last one once over. */
  index: number;
  /** Each length's run, once started: the latest run of that length and agent. */
  runIds: number[];
  /** The current length's start was asked for. */
  sent: boolean;
  /**
   * The page has shown that start on its way (or its run). The page redraws at its own pace, so
   * a state seen right after the start may not show it yet: only a start once shown can be dropped.
   */
  shown: boolean;
  /** The id of the latest run when that start was asked for: a run above it is a new one. */
  after: number;
  state: 'running' | 'done' | 'stopped';
}

type Seen = Pick<WorkerState, 'status' | 'run' | 'startSent'>;

export function newSequence(agent: EpisodeKind, lengths: readonly EpisodeKind[]): RunSequence {
  return { agent, lengths, index: 0, runIds: [], sent: false, shown: false, after: -1, state: 'running' };
}

/** The worker can take a start now (loading: it waits, as a Run pressed then does). */
const canStart = (s: Seen) => s.status !== 'loading' && s.status !== 'dead';

/**
 * The sequence after the page saw `s`, and the length to start now, if any (the caller starts it
 * through Run and then marks it sent with `sentAt`).
 */
export function sequenceStep(q: RunSequence, s: Seen): { next: RunSequence; start: EpisodeKind | null } {
  const same = { next: q, start: null };
  if (q.state !== 'running') return same;
  if (!q.sent) return canStart(s) ? { next: q, start: q.lengths[q.index]! } : same;
  if (s.status === 'dead') return stop(q);
  const r = s.run;
  const mine = q.runIds[q.index];
  if (r && r.runId > (mine ?? q.after)) {
    // A run began since: the length's own (its first, or GRPO restarted by a setting), or another.
    const ours = r.config.episode === q.lengths[q.index] && agentOf(r.config) === q.agent;
    if (!ours) return stop(q);
    const runIds = [...q.runIds.slice(0, q.index), r.runId];
    return sequenceStep({ ...q, runIds }, s);
  }
  // Its start is on its way, unless the page dropped it (a Reset) or an error stopped the worker.
  if (mine === undefined) {
    if (s.startSent) return q.shown ? same : { next: { ...q, shown: true }, start: null };
    return q.shown ? stop(q) : same;
  }
  if (!r || r.runId !== mine || r.end === 'error' || r.end === 'stopped') return stop(q);
  if (r.end !== 'done') return same;
  if (q.index + 1 === q.lengths.length) return { next: { ...q, state: 'done' }, start: null };
  return sequenceStep({ ...q, index: q.index + 1, sent: false }, s);
}

/** The current length's start was sent while `latestRunId` was the page's latest run. */
export const sentAt = (q: RunSequence, latestRunId: number): RunSequence => ({
  ...q,
  sent: true,
  shown: false,
  after: latestRunId,
});

/** The reader ended it (Reset). */
export const stopped = (q: RunSequence): RunSequence => (q.state === 'running' ? { ...q, state: 'stopped' } : q);

const stop = (q: RunSequence) => ({ next: stopped(q), start: null });
