/**
 * The standalone page's build serves the checkpoints' weights in byte planes, as the package's
 * folder does (scripts/build/lib-build.ts; src/model/byte-planes.ts: ~7% smaller gzipped, the
 * worker undoes it as it fetches). A `weights.bin?url&no-inline` import (src/ui/bundled-assets.ts)
 * becomes an emitted file of the same bits regrouped; the dev server serves the plain file.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Plugin } from 'vite';
import { toBytePlanes } from '../../src/model/byte-planes.ts';

const WEIGHTS = /\/weights\.bin\?url&no-inline$/;
/** Bytes a value takes, by the manifest's dtype (src/model/checkpoint.ts's BYTES_PER_VALUE; that module brings tfjs). */
const WIDTH: Record<string, number> = { float16: 2, float32: 4 };

export function weightsInBytePlanes(): Plugin {
  return {
    name: 'plate:weights-in-byte-planes',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      if (!WEIGHTS.test(id)) return null;
      const file = id.slice(0, id.indexOf('?'));
      const manifest = JSON.parse(readFileSync(join(dirname(file), 'manifest.json'), 'utf8')) as {
        weights: { dtype?: string }[];
      };
      const width = WIDTH[manifest.weights[0]?.dtype ?? 'float16'];
      if (!width) throw new Error(`${file}: a dtype this build cannot lay out in byte planes`);
      const plain = readFileSync(file);
      const source = new Uint8Array(
        toBytePlanes(plain.buffer.slice(plain.byteOffset, plain.byteOffset + plain.length), width),
      );
      const ref = this.emitFile({ type: 'asset', name: basename(file), source });
      return `export default import.meta.ROLLUP_FILE_URL_${ref};`;
    },
  };
}
