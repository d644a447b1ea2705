import { describe, expect, it } from 'vitest';
import { GRPO } from '../../src/config';
import { scheduledLr } from '../../src/rl/grpo';

const at = (over: { lrWarmupSteps?: number; lrHoldSteps?: number }, steps: number[]) =>
  steps.map((s) => scheduledLr({ ...GRPO, lr: 3e-4, ...over }, s));
/** Rates to 15 decimals: 3e-4 · 0.1 is 2.9999999999999997e-5 in floating point. */
const rates = (xs: number[]) => xs.map((x) => expect.closeTo(x, 15));

describe('GRPO’s learning-rate schedule (a measurement knob for the first dip)', () => {
  it('is the plate’s rate at every step when neither knob is set', () => {
    expect(at({}, [1, 2, 40])).toEqual([3e-4, 3e-4, 3e-4]);
  });

  it('rises linearly over the warm-up, step 1 at a tenth of a 10-step one, then stays', () => {
    expect(at({ lrWarmupSteps: 10 }, [1, 5, 10, 11, 40])).toEqual(rates([3e-5, 1.5e-4, 3e-4, 3e-4, 3e-4]));
  });

  it('is 0 over the hold, then the full rate, or the warm-up counted from the hold’s end', () => {
    expect(at({ lrHoldSteps: 5 }, [1, 5, 6, 40])).toEqual([0, 0, 3e-4, 3e-4]);
    expect(at({ lrHoldSteps: 2, lrWarmupSteps: 4 }, [2, 3, 6, 7])).toEqual(rates([0, 7.5e-5, 3e-4, 3e-4]));
  });
});
