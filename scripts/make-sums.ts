// npm run make-sums: writes the committed splits, src/env/sums.json (the one-call world's 100
// sums a + b), src/env/sums-two-calls.json (the two-call world's 100 sums a + b + c) and
// src/env/sums-three-calls.json (the three-call world's 100 sums a + b + c + d). Run once; tests check them.
// It takes no options: any option stops it before it writes a file.
import { writeFileSync } from 'node:fs';
import { drawSplit } from '../src/env/sums';
import { parseOptions } from '../src/node/args';

parseOptions({ options: {} });

const SPLIT_SEED = 2026;
/** Its own seed, so the two-call world's sums are not the one-call world's with a term added. */
const TWO_CALL_SPLIT_SEED = 2027;
/** Its own seed too, so the three-call world's sums are not the two-call world's with a term added. */
const THREE_CALL_SPLIT_SEED = 2028;

/** One sum per line: `{"a":23,"b":45}`, `{"a":23,"b":45,"c":17}` or `{"a":23,"b":45,"c":17,"d":31}`. */
const compact = (json: string): string =>
  json.replace(/\{(?:\n\s*"[abcd]": \d+,?)+\n\s*\}/g, (sum) => JSON.stringify(JSON.parse(sum)));

for (const [file, split] of [
  ['sums.json', drawSplit(SPLIT_SEED)],
  ['sums-two-calls.json', drawSplit(TWO_CALL_SPLIT_SEED, 3)],
  ['sums-three-calls.json', drawSplit(THREE_CALL_SPLIT_SEED, 4)],
] as const) {
  writeFileSync(new URL(`../src/env/${file}`, import.meta.url), compact(JSON.stringify(split, null, 1)) + '\n');
  console.log(`wrote src/env/${file}`);
}
