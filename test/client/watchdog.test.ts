import { describe, expect, it } from 'vitest';
import { Watchdog, type Heard } from '../../src/client/watchdog';

const opts = { minSilenceMs: 4000, factor: 5, startupMs: 30_000 };

/** A message at `at` (ms): a number is a timed step's ms, 'part' a part of a step, nothing a heartbeat. */
type Message = [at: number, what?: number | 'part'];

/** A watchdog that heard these messages. */
function heard(...messages: Message[]): Watchdog {
  const w = new Watchdog(0, opts);
  for (const [at, what] of messages) w.heard(at, pace(what));
  return w;
}

const pace = (what: Message[1]): Heard =>
  what === 'part' ? { part: true } : what === undefined ? {} : { stepMs: what };

/** Every second from `from` to `to`, a part of a step (an engine without its JIT: one step takes minutes). */
const parts = (from: number, to: number): Message[] =>
  Array.from({ length: Math.floor((to - from) / 1000) + 1 }, (_, i) => [from + i * 1000, 'part'] as Message);

describe('the watchdog', () => {
  it('gives a worker that has not timed a step yet the start-up allowance', () => {
    const w = heard([2500], [3500]);
    expect(w.limit()).toBe(30_000);
    expect(w.overdue(33_000)).toBeNull();
    expect(w.overdue(34_000)).toBe(30_500);
  });

  it('calls a fast worker that goes silent dead within a few seconds', () => {
    const w = heard([1000], [1200, 180], [1400, 180], [1600, 180]);
    expect(w.limit()).toBe(4000);
    expect(w.overdue(5500)).toBeNull();
    expect(w.overdue(5700)).toBe(4100);
  });

  it('waits several times the longest recent step or gap for a slow backend', () => {
    const w = heard([1000], [4000, 3000], [7000, 3000]);
    expect(w.limit()).toBe(15_000);
    expect(w.overdue(21_000)).toBeNull();
  });

  it('does not count the wait for the first message (the worker loading) as a gap', () => {
    const w = heard([20_000], [20_200, 150]);
    expect(w.limit()).toBe(4000);
  });

  it('keeps a worker alive through a step of minutes that reports its parts, the first step included', () => {
    // Loading, then the held-out evaluation before the first step, then step 1: 200 s of parts a
    // second apart, with one part of 6 s (the update's), and no step timed for 140 s.
    const w = new Watchdog(0, opts);
    const messages: Message[] = [[2000], ...parts(3000, 60_000), [61_000, 58_000], ...parts(62_000, 130_000)];
    messages.push([136_000, 'part'], ...parts(137_000, 200_000), [201_000, 139_000]);
    let last = 0;
    for (const [at, what] of messages) {
      // Between any two messages the worker is never overdue: at no moment is it called dead.
      expect(w.overdue(at - 1)).toBeNull();
      w.heard(at, pace(what));
      last = at;
    }
    expect(last).toBe(201_000);
  });

  it('judges a step that reported its parts by its parts, not by its minutes: a worker that then hangs is caught', () => {
    const w = heard([2000], ...parts(3000, 60_000), [61_000, 58_000], ...parts(62_000, 100_000));
    // The step of 58 s said how it went: silence is judged against its parts (1 s) and the
    // start-up allowance, not against 5 × 58 s.
    expect(w.limit()).toBe(30_000);
    expect(w.overdue(100_000 + 30_000)).toBeNull();
    expect(w.overdue(100_000 + 31_000)).toBe(31_000);
    // Past its first step, a slow engine's worker is still given the longest part's five times.
    const later = heard([2000], [3000, 2500], ...parts(4000, 20_000), [28_000, 'part'], ...parts(29_000, 40_000));
    expect(later.limit()).toBe(40_000);
    expect(later.overdue(40_000 + 40_500)).toBe(40_500);
  });

  it('without parts, a step of minutes still sets the pace as before', () => {
    const w = heard([2000], [62_000, 60_000]);
    expect(w.limit()).toBe(300_000);
  });
});
