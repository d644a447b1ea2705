/**
 * The sums of the tool world. 100 distinct two-digit sums, drawn once with a fixed seed and
 * committed as `sums.json`, so the page, the scripts and the tests all use the same ones:
 * 70 training sums (30 of them the demonstrations, the other 40 the validation set for every
 * choice we make) and 30 held-out sums that nothing is ever selected on.
 */
import { createRng, shuffled } from '../lib/rng';
import data from './sums.json';

export interface Sum {
  a: number;
  b: number;
}

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

export const sumKey = (s: Sum): string => `${s.a}+${s.b}`;

/** The generator behind sums.json (kept so the data can be checked and remade). */
export function drawSplit(seed: number): SumSplit {
  const rng = createRng(seed);
  const seen = new Set<string>();
  const all: Sum[] = [];
  const span = OPERAND_MAX - OPERAND_MIN + 1;
  while (all.length < SPLIT_SIZES.total) {
    const s = { a: OPERAND_MIN + rng.int(span), b: OPERAND_MIN + rng.int(span) };
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

export const SPLIT: SumSplit = data as SumSplit;

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

/** A sum of the world's range (two operands from OPERAND_MIN to OPERAND_MAX). */
export const inRange = (s: Sum): boolean =>
  [s.a, s.b].every((x) => Number.isInteger(x) && x >= OPERAND_MIN && x <= OPERAND_MAX);
