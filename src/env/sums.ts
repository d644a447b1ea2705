/**
 * The sums of the tool worlds. Per world, 100 distinct sums of two-digit operands, drawn once
 * with a fixed seed and committed as JSON, so the page, the scripts and the tests all use the
 * same ones: 70 training sums (30 of them the demonstrations, the other 40 the validation set for
 * every choice we make) and 30 held-out sums that nothing is ever selected on. The one-call
 * world's are `a + b` (`sums.json`), the two-call world's `a + b + c` (`sums-two-calls.json`),
 * the three-call world's `a + b + c + d` (`sums-three-calls.json`).
 */
import { createRng, shuffled } from '../lib/rng';
import data from './sums.json';
import twoCallData from './sums-two-calls.json';
import threeCallData from './sums-three-calls.json';

/**
 * A sum of two terms, of three in the two-call world, of four in the three-call world. The later
 * terms are optional fields rather than a list of terms, so a one-call sum, its JSON and everything
 * that reads one stay as they were; code that works in every world reads `terms(s)`.
 */
export interface Sum {
  a: number;
  b: number;
  /** The third term: the two- and three-call worlds' sums have one, the one-call world's do not. */
  c?: number;
  /** The fourth term: the three-call world's sums alone have one (and then a third too). */
  d?: number;
}

/** A sum's terms in order: [a, b], [a, b, c] or [a, b, c, d]. */
export const terms = (s: Sum): number[] => [
  s.a,
  s.b,
  ...(s.c === undefined ? [] : [s.c]),
  ...(s.d === undefined ? [] : [s.d]),
];

/** What the sum adds up to: what the exact grader pays for. */
export const total = (s: Sum): number => terms(s).reduce((x, y) => x + y, 0);

export interface SumSplit {
  seed: number;
  train: Sum[];
  heldOut: Sum[];
  /** 30 of the training sums; the fine-tuning data. */
  demonstrations: Sum[];
  /** The 40 training sums that are not demonstrations. */
  validation: Sum[];
}

export const OPERAND_MIN = 10;
export const OPERAND_MAX = 99;
const SPLIT_SIZES = { total: 100, train: 70, heldOut: 30, demonstrations: 30 } as const;

export const sumKey = (s: Sum): string => terms(s).join('+');

/**
 * The generator behind the committed splits (kept so the data can be checked and remade):
 * `termCount` 2 for the one-call world, 3 for the two-call world, 4 for the three-call world.
 * Each term is drawn in order from the one stream, so a split of fewer terms is not a prefix of it.
 */
export function drawSplit(seed: number, termCount: 2 | 3 | 4 = 2): SumSplit {
  const rng = createRng(seed);
  const seen = new Set<string>();
  const all: Sum[] = [];
  const span = OPERAND_MAX - OPERAND_MIN + 1;
  while (all.length < SPLIT_SIZES.total) {
    const s: Sum = { a: OPERAND_MIN + rng.int(span), b: OPERAND_MIN + rng.int(span) };
    if (termCount >= 3) s.c = OPERAND_MIN + rng.int(span);
    if (termCount === 4) s.d = OPERAND_MIN + rng.int(span);
    if (seen.has(sumKey(s))) continue;
    seen.add(sumKey(s));
    all.push(s);
  }
  const train = all.slice(0, SPLIT_SIZES.train);
  const heldOut = all.slice(SPLIT_SIZES.train);
  const demoKeys = new Set(shuffled(train, rng).slice(0, SPLIT_SIZES.demonstrations).map(sumKey));
  return {
    seed,
    train,
    heldOut,
    demonstrations: train.filter((s) => demoKeys.has(sumKey(s))),
    validation: train.filter((s) => !demoKeys.has(sumKey(s))),
  };
}

/** The one-call world's split. */
export const SPLIT: SumSplit = data as SumSplit;
/** The two-call world's split: three-term sums. */
export const TWO_CALL_SPLIT: SumSplit = twoCallData as SumSplit;
/** The three-call world's split: four-term sums. */
export const THREE_CALL_SPLIT: SumSplit = threeCallData as SumSplit;

/** Where a sum stands in the split: one of the 70 training sums, the 30 held-out ones, or neither. */
export function sumKind(
  s: Sum,
  split: SumSplit = SPLIT,
): { kind: 'training' | 'held-out' | 'new'; demonstration: boolean } {
  const key = sumKey(s);
  const has = (list: readonly Sum[]) => list.some((x) => sumKey(x) === key);
  const kind = has(split.train) ? 'training' : has(split.heldOut) ? 'held-out' : 'new';
  return { kind, demonstration: has(split.demonstrations) };
}

/** A sum of the worlds' range (every term from OPERAND_MIN to OPERAND_MAX). */
export const inRange = (s: Sum): boolean =>
  terms(s).every((x) => Number.isInteger(x) && x >= OPERAND_MIN && x <= OPERAND_MAX);
