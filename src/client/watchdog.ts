/**
 * Decides when a silent training worker has stopped. The worker posts something at least
 * every second while its event loop is free (`alive`), and after every step; a step on a slow
 * backend can hold the loop for seconds. So the silence allowed is several times the longest
 * recent gap or step, never under a few seconds, and generous until the first step has been
 * timed (loading tfjs and compiling kernels).
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

const WINDOW = 20;

export class Watchdog {
  private last: number;
  /** The wait for the first message (the worker's module loading) is not a gap between messages. */
  private first = true;
  private gaps: number[] = [];
  private steps: number[] = [];

  constructor(
    now: number,
    private readonly opts: WatchdogOptions = WATCHDOG,
  ) {
    this.last = now;
  }

  /** A message arrived at `now`; `stepMs` if it carried a timed step. */
  heard(now: number, stepMs?: number): void {
    if (!this.first) this.gaps = [...this.gaps, now - this.last].slice(-WINDOW);
    this.first = false;
    if (stepMs !== undefined && stepMs > 0) this.steps = [...this.steps, stepMs].slice(-WINDOW);
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
