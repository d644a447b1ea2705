/**
 * Decides when a silent training worker has stopped. The worker posts something at least
 * every second while its event loop is free (`alive`), after every step, and — where a step
 * takes longer than a second (an engine without its JIT, where one takes minutes) — between
 * the step's parts (`progress`), which it cuts small enough to report every few seconds. So
 * the silence allowed is several times the longest recent gap between messages, or step that
 * said nothing on its way; never under a few seconds; and generous until the first step has
 * been timed (loading tfjs and compiling kernels). A step that reported its parts is judged
 * by them: its minutes would otherwise let a worker that hangs go unnoticed for as long.
 */
export interface WatchdogOptions {
  /** Never call a worker dead sooner than this. */
  minSilenceMs: number;
  /** Times the longest recent gap between messages, or step, that silence may last. */
  factor: number;
  /** Silence allowed before any step has been timed. */
  startupMs: number;
}

const WATCHDOG: WatchdogOptions = { minSilenceMs: 4000, factor: 5, startupMs: 30_000 };

/**
 * Gaps and steps remembered. A slow engine's step posts its parts' progress ~100 times: the
 * longest part of the last step (the update's, or the rollout's prompt) stays in view.
 */
const WINDOW = 200;

/** What a message says about the worker's pace: a step it timed, or a part of a step. */
export type Heard = { stepMs?: number } | { part: true };

export class Watchdog {
  private last: number;
  /** The wait for the first message (the worker's module loading) is not a gap between messages. */
  private first = true;
  private gaps: number[] = [];
  private steps: number[] = [];
  /** A part of the step in flight has been heard: that step is judged by its parts. */
  private inParts = false;

  constructor(
    now: number,
    private readonly opts: WatchdogOptions = WATCHDOG,
  ) {
    this.last = now;
  }

  /** A message arrived at `now`, saying `what` of the worker's pace (nothing: alive, or any other event). */
  heard(now: number, what: Heard = {}): void {
    if (!this.first) this.gaps = [...this.gaps, now - this.last].slice(-WINDOW);
    this.first = false;
    if ('part' in what) this.inParts = true;
    else if (what.stepMs !== undefined) {
      if (what.stepMs > 0 && !this.inParts) this.steps = [...this.steps, what.stepMs].slice(-WINDOW);
      this.inParts = false;
    }
    this.last = now;
  }

  /** The silence allowed now, in milliseconds. */
  limit(): number {
    const { minSilenceMs, factor, startupMs } = this.opts;
    const typical = factor * Math.max(0, ...this.gaps, ...this.steps);
    return Math.max(minSilenceMs, typical, this.steps.length === 0 ? startupMs : 0);
  }

  /** How long the worker has been silent, if longer than allowed; else null. */
  overdue(now: number): number | null {
    const silent = now - this.last;
    return silent > this.limit() ? silent : null;
  }
}
