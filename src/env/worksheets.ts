/**
 * Single-digit worksheets for pre-training: lines of sums whose operands are single digits,
 * packed after the start mark up to the context length (`^3+4=7|9+8=17|…`). The `restate`
 * format writes the problem again before the answer (`3+4=3+4|7|`), as the agent does in its call.
 */
import type { WorksheetFormat } from '../config';
import type { Rng } from '../lib/rng';
import { END, START } from '../model/vocab';

/** @internal A test seam: exported for the worksheets' test. */
export const WORKSHEET_OPERAND_MAX = 9;

export function worksheetLine(a: number, b: number, format: WorksheetFormat): string {
  if (a < 0 || a > WORKSHEET_OPERAND_MAX || b < 0 || b > WORKSHEET_OPERAND_MAX) {
    throw new Error(`worksheetLine: operands must be single digits, got ${a} and ${b}`);
  }
  return format === 'plain' ? `${a}+${b}=${a + b}${END}` : `${a}+${b}=${a}+${b}${END}${a + b}${END}`;
}

/** One worksheet row: `^` then whole lines while they fit in `length` characters. */
export function worksheetRow(rng: Rng, length: number, format: WorksheetFormat): string {
  let row = START;
  for (;;) {
    const line = worksheetLine(rng.int(WORKSHEET_OPERAND_MAX + 1), rng.int(WORKSHEET_OPERAND_MAX + 1), format);
    if (row.length + line.length > length) return row;
    row += line;
  }
}

/** All 100 single-digit sums, 0+0 to 9+9: what a worksheet can ask. */
export function singleDigitSums(): { a: number; b: number }[] {
  const out: { a: number; b: number }[] = [];
  for (let a = 0; a <= WORKSHEET_OPERAND_MAX; a++) for (let b = 0; b <= WORKSHEET_OPERAND_MAX; b++) out.push({ a, b });
  return out;
}
