import { describe, expect, it } from 'vitest';
import { Watchdog } from '../../src/client/watchdog';

const opts = { minSilenceMs: 4000, factor: 5, startupMs: 30_000 };

/** A watchdog that heard messages at these times (ms), with step times where given. */
function heard(...messages: [number, number?][]): Watchdog {
  const w = new Watchdog(0, opts);
  for (const [at, step] of messages) w.heard(at, step);
  return w;
}

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
});
