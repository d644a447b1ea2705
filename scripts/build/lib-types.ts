// npm run build:lib's last step: the library's TypeScript declarations as one file,
// dist-lib/multi-turn-rl-plate.d.ts, bundled from src/ui/lib.ts by dts-bundle-generator, plus
// the JSX declaration of <plate-multi-turn-rl> that lib.ts makes (the bundler drops module
// augmentations, so it is carried over as written there).
import { readFileSync, writeFileSync } from 'node:fs';
import { generateDtsBundle } from 'dts-bundle-generator';
import { main } from '../../src/node/args';

const ENTRY = 'src/ui/lib.ts';
const OUT = 'dist-lib/multi-turn-rl-plate.d.ts';

await main(async () => {
  const [bundle] = generateDtsBundle([{ filePath: ENTRY, output: { noBanner: true } }], {
    preferredConfigPath: 'tsconfig.lib.json',
  });
  const augmentation = /^declare module 'react' \{[\s\S]*?^\}$/m.exec(readFileSync(ENTRY, 'utf8'));
  if (!bundle || !augmentation) throw new Error(`lib-types: no declarations, or no JSX declaration in ${ENTRY}`);
  writeFileSync(OUT, `${bundle.trimEnd()}\n\n${augmentation[0]}\n`);
  console.log(`wrote ${OUT}`);
});
