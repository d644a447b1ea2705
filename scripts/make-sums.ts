// npm run make-sums: writes the committed splits, src/env/sums.json (the one-call world's 100
// sums a + b) and src/env/sums-two-calls.json (the two-call world's 100 sums a + b + c). Run once; tests check them.
import { writeFileSync } from 'node:fs';
import { drawSplit } from '../src/env/sums';

const SPLIT_SEED = 2026;
/** Its own seed, so the two-call world's sums are not the one-call world's with a term added. */
const TWO_CALL_SPLIT_SEED = 2027;

/** One sum per line: `{"a":23,"b":45}` or `{"a":23,"b":45,"c":17}`. */
const compact = (json: string): string =>
  json.replace(/\{\n\s*"a": (\d+),\n\s*"b": (\d+)(?:,\n\s*"c": (\d+))?\n\s*\}/g, (_, a, b, c) =>
    c === undefined ? `{"a":${a},"b":${b}}` : `{"a":${a},"b":${b},"c":${c}}`,
  );

for (const [file, split] of [
  ['sums.json', drawSplit(SPLIT_SEED)],
  ['sums-two-calls.json', drawSplit(TWO_CALL_SPLIT_SEED, 3)],
] as const) {
  writeFileSync(new URL(`../src/env/${file}`, import.meta.url), compact(JSON.stringify(split, null, 1)) + '\n');
  console.log(`wrote src/env/${file}`);
}
