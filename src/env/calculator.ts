/**
 * The calculator tool. Reliable: returns a + b. Faulty: with probability `faultyRate` it lies,
 * returning a plausible wrong number (off by a small amount or by ten) that is never the true
 * sum and never negative. The faulty one draws from the Rng it is given, so a seed replays it.
 */
import type { Rng } from '../lib/rng';

interface CalculatorResult {
  value: number;
  lied: boolean;
}

export type Calculator = (a: number, b: number) => CalculatorResult;

/** The two calculators: the one that never lies, and the one that lies at `faultyRate`. */
export type CalculatorName = 'reliable' | 'faulty';

/**
 * The offsets a lying calculator adds: slips of a digit or of a carry.
 * @internal A test seam: exported for the test that plants a lie.
 */
export const LIE_OFFSETS = [-10, -2, -1, 1, 2, 10] as const;

export const reliableCalculator: Calculator = (a, b) => ({ value: a + b, lied: false });

export function faultyCalculator(rng: Rng, faultyRate: number): Calculator {
  if (!(faultyRate >= 0 && faultyRate <= 1))
    throw new Error(`faultyCalculator: faultyRate must be in [0, 1], got ${faultyRate}`);
  return (a, b) => {
    const truth = a + b;
    if (rng.next() >= faultyRate) return { value: truth, lied: false };
    const offset = LIE_OFFSETS[rng.int(LIE_OFFSETS.length)]!;
    // A negative result would be implausible; flip the offset instead (never 0, so never the truth).
    const value = truth + offset >= 0 ? truth + offset : truth - offset;
    return { value, lied: true };
  };
}

/** The calculator `name` names; the faulty one draws from `rng`. */
export const calculatorFor = (name: CalculatorName, rng: Rng, faultyRate: number): Calculator =>
  name === 'faulty' ? faultyCalculator(rng, faultyRate) : reliableCalculator;
