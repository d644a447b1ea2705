import react from '@vitejs/plugin-react';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirst from './test/sequencer.ts';
import { toBytePlanes } from './src/model/byte-planes.ts';

/**
 * In the browser, `@tensorflow/tfjs` is only what the plate uses (src/model/tfjs-browser.ts):
 * the worker chunk is smaller by the umbrella's layers, converter, data and core-js. Node (the
 * scripts, the unit tests: mode 'test') keeps the umbrella, whose CommonJS build registers the
 * gradients there. vite.lib.config.ts uses the same alias.
 */
export const tfjsBrowserAlias = [
  { find: /^@tensorflow\/tfjs$/, replacement: fileURLToPath(new URL('./src/model/tfjs-browser.ts', import.meta.url)) },
];

/**
 * The page's build serves the checkpoints' weights in byte planes, as the package's folder does
 * (scripts/build/lib-build.ts; src/model/byte-planes.ts: ~7% smaller gzipped, the worker undoes it
 * as it fetches). A `weights.bin?url&no-inline` import (src/ui/bundled-assets.ts) becomes an
 * emitted file of the same bits regrouped; the dev server serves the plain file.
 */
const WEIGHTS = /\/weights\.bin\?url&no-inline$/;
/** Bytes a value takes, by the manifest's dtype (src/model/checkpoint.ts's BYTES_PER_VALUE; that module brings tfjs). */
const WIDTH: Record<string, number> = { float16: 2, float32: 4 };

function weightsInBytePlanes(): Plugin {
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

// Relative base: the built page works from any sub-path of any static host.
/**
 * A part the page loads when it is wanted (a module `…-load.ts` whose function imports the part's
 * code: the step taken apart, the scale charts) comes with its `.eager` twin instead, which has the
 * code already: in the package's build (scripts/build/lib-build.ts: it ships one entry and one
 * element, and inlining the dynamic import itself kept all of d3's side effects, +19 KB gzipped)
 * and in the unit tests (a server render then draws the part, not its fallback).
 */
export function eagerParts(): Plugin {
  return {
    name: 'eager-parts',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !/^\.\.?\/[\w/.-]*-load$/.test(source)) return null;
      const eager = resolve(dirname(importer), `${source}.eager.ts`);
      return existsSync(eager) ? eager : null;
    },
  };
}

export default defineConfig(({ mode }) => ({
  base: './',
  plugins: [react(), weightsInBytePlanes()],
  resolve: { alias: mode === 'test' ? [] : tfjsBrowserAlias },
  // Pre-bundle from the page and its worker only: the package test's consumer app imports a
  // package that only exists once packed, and a failed scan (or a dependency first met in the
  // worker) would make the dev server reload the page while a reader may be pressing Run.
  optimizeDeps: { entries: ['index.html', 'src/worker/training.worker.ts'] },
  // The training worker is a module worker; its code-split chunks (tfjs backends) need ES output.
  worker: { format: 'es' },
  // The page imports the files it loads (src/ui/bundled-assets.ts), so they are emitted with
  // hashed names; public/ is the checkpoints' home for the Node scripts and the worker tests'
  // harness (which serves it), not a folder the page serves: Vite would warn at each import.
  publicDir: false,
  test: {
    testTimeout: 60_000,
    // A file's set-up may run a script or two (test/scripts/pipeline.test.ts): Vitest's 10 s is too
    // short once another job holds a core.
    hookTimeout: 120_000,
    sequence: { sequencer: LongestFirst },
    // Each project names its own files: `extends` would concatenate a shared include list.
    projects: [
      {
        extends: true,
        plugins: [eagerParts()],
        test: {
          name: 'unit',
          // Files share a worker's modules: tfjs and its WASM backend load once per worker, not
          // once per file (test:unit 78 → 52 s). Every file sets its backend in beforeAll and no
          // test mocks a module; the suite passes in shuffled file order too.
          isolate: false,
          maxWorkers: 2,
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/e2e/**', 'test/sites/**'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        // Real headless Chromium (and Firefox) on one production build (test/e2e/setup.ts); runs
        // after the unit tests, files side by side as the unit files are. The tests wait on events,
        // not on the clock, so a busier machine makes them slower, not wrong.
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/setup.ts'],
          // Two files side by side even on two cores: a browser test waits on the worker most of
          // the time, and Vitest would otherwise keep a core for itself.
          maxWorkers: 2,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
}));
