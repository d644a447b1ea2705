// npm run make-sums: writes src/env/sums.json, the committed split of the 100 sums. Run once; tests check it.
import { writeFileSync } from 'node:fs';
import { drawSplit } from '../src/env/sums';

const SPLIT_SEED = 2026;
writeFileSync(
  new URL('../src/env/sums.json', import.meta.url),
  JSON.stringify(drawSplit(SPLIT_SEED), null, 1).replace(
    /\{\n\s*"a": (\d+),\n\s*"b": (\d+)\n\s*\}/g,
    '{"a":$1,"b":$2}',
  ) + '\n',
);
console.log('wrote src/env/sums.json');
