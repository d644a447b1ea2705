/**
 * When the page folds the worker's events into its state (and so redraws the figure). Records
 * (`step` events) wait until RECORD_INTERVAL_MS after the last fold, then go in one batch at the
 * next animation frame; any other event (started, paused, an answer, done, an error) goes at the
 * next frame and takes the records queued before it along. Nothing is dropped or reordered: the
 * figure ends exactly where it would with a redraw per record, with fewer redraws on the way
 * (a supervised step takes ~50 ms here, and every redraw of the figure cost the main thread
 * 10–80 ms of script, layout and paint on two cores it shares with the worker).
 */
import type { ClientEvent } from './worker-state';

/**
 * At most one fold of records per this many ms: four redraws a second still read as live.
 * @internal A test seam: exported for the pacing test.
 */
export const RECORD_INTERVAL_MS = 250;

/** The browser's clocks, injected so that a test can drive them by hand. */
export interface PaceClock {
  now(): number;
  frame(run: () => void): number;
  cancelFrame(id: number): void;
  after(ms: number, run: () => void): number;
  cancelAfter(id: number): void;
}

const browserClock: PaceClock = {
  now: () => performance.now(),
  frame: (run) => requestAnimationFrame(run),
  cancelFrame: (id) => cancelAnimationFrame(id),
  after: (ms, run) => window.setTimeout(run, ms),
  cancelAfter: (id) => window.clearTimeout(id),
};

export class RedrawPace {
  private pending: ClientEvent[] = [];
  private frameId = 0;
  private timerId = 0;
  private last = -Infinity;

  constructor(
    private readonly fold: (batch: ClientEvent[]) => void,
    private readonly clock: PaceClock = browserClock,
  ) {}

  push(e: ClientEvent): void {
    this.pending.push(e);
    if (this.frameId !== 0) return;
    const wait = e.type === 'step' ? this.last + RECORD_INTERVAL_MS - this.clock.now() : 0;
    if (wait > 0) {
      if (this.timerId === 0) this.timerId = this.clock.after(wait, () => this.toFrame());
      return;
    }
    this.toFrame();
  }

  /** Folds what is queued now (a worker that died says so at once). */
  flush(): void {
    this.cancel();
    this.last = this.clock.now();
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) this.fold(batch);
  }

  /** Stops the frame or timer in flight; what is queued stays queued. */
  cancel(): void {
    if (this.frameId !== 0) this.clock.cancelFrame(this.frameId);
    if (this.timerId !== 0) this.clock.cancelAfter(this.timerId);
    this.frameId = 0;
    this.timerId = 0;
  }

  private toFrame(): void {
    if (this.timerId !== 0) this.clock.cancelAfter(this.timerId);
    this.timerId = 0;
    this.frameId = this.clock.frame(() => {
      this.frameId = 0;
      this.flush();
    });
  }
}
