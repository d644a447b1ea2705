// Two Vite plugins for the library build (vite.lib.config.ts), so that the package is ES modules
// a consumer's bundler understands:
//   - the training worker stays a worker for the consumer's bundler to build, with code-splitting;
//   - `@tensorflow/tfjs` becomes tfjs-core's own namespace, which the consumer's bundler tree-shakes;
//   - the plate's files (.wasm, weights, manifests, reference runs) keep the layout of public/
//     under dist-lib/assets/, with fixed names, so a site can copy that folder for `asset-base`;
//     the weights in byte planes, which gzip shrinks more (src/model/byte-planes.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, posix, relative, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { toBytePlanes } from '../../src/model/byte-planes';

/**
 * `new Worker(new URL('../worker/x.worker.ts', import.meta.url), …)` in the source (as the page's
 * Vite build wants it) becomes an entry chunk `x.worker.js` of its own beside the library, and the
 * expression becomes the literal `new Worker(new URL('./x.worker.js', import.meta.url), …)` that
 * Vite and webpack recognise in a dependency: they build the worker and split its dynamic imports
 * (the tfjs backends) themselves. Without this, Vite's lib build would bundle the worker into one
 * asset that the consumer's bundler can only copy.
 */
export function workerForTheConsumer(): Plugin {
  const RE = /new\s+URL\(\s*'(\.{1,2}\/[^']+\.worker\.ts)'\s*,\s*import\.meta\.url\s*\)/g;
  /** Placeholder identifier → the worker chunk's file name. */
  const workers = new Map<string, string>();
  return {
    name: 'plate:worker-for-the-consumer',
    enforce: 'pre', // before Vite's own worker plugin sees the literal
    transform(code, id) {
      if (!code.includes('.worker.ts')) return null;
      let out = code;
      for (const m of code.matchAll(RE)) {
        const file = resolve(dirname(id), m[1]!);
        const name = basename(file, '.ts');
        const placeholder = `__PLATE_WORKER_${workers.size}__`;
        workers.set(placeholder, `${name}.js`);
        this.emitFile({ type: 'chunk', id: file, fileName: `${name}.js` });
        // A free identifier: neither Vite's regexes nor the minifier touch it before generateBundle.
        out = out.replace(m[0], `new URL(${placeholder}, import.meta.url)`);
      }
      return out === code ? null : { code: out, map: null };
    },
    // After minification, which would write the strings as template literals: the consumer's
    // bundler gets the plain form, `new Worker(new URL("./x.worker.js",import.meta.url),{type:"module",…})`.
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        chunk.code = chunk.code.replace(/new URL\((__PLATE_WORKER_\d+__),\s*import\.meta\.url\)(\s*,\s*\{[^{}]*\})?/g, (_m, placeholder: string, options = '') => {
          const rel = posix.relative(posix.dirname(chunk.fileName), workers.get(placeholder)!);
          return `new URL(${JSON.stringify(rel.startsWith('.') ? rel : `./${rel}`)},import.meta.url)${options.replace(/`([^`$\\]*)`/g, '"$1"')}`;
        });
        // Dynamic imports of the backends too: `import("@tensorflow/tfjs-backend-wasm")`.
        chunk.code = chunk.code.replace(/\bimport\(`([^`$\\]+)`\)/g, 'import("$1")');
        if (chunk.code.includes('__PLATE_WORKER_')) this.error(`${chunk.fileName}: a worker URL was minified into a form this plugin cannot restore`);
      }
    },
  };
}

/**
 * In the library, `import * as tf from '@tensorflow/tfjs'` imports `@tensorflow/tfjs-core` itself
 * (a dependency, external), after src/model/tfjs-setup.ts's registrations. Not through the page's
 * alias module (src/model/tfjs-browser.ts): its `export * from` an external package leaves Rolldown
 * a namespace object to fill at run time, and a consumer's bundler that sees the whole namespace
 * escape keeps all of tfjs-core (measured: the Vite consumer's worker 29 KB gzipped heavier).
 */
export function tfjsForTheConsumer(setup: string): Plugin {
  const IMPORT = /from\s*['"]@tensorflow\/tfjs['"]/;
  return {
    name: 'plate:tfjs-for-the-consumer',
    enforce: 'pre',
    resolveId(id) {
      return id === '@tensorflow/tfjs' ? { id: '@tensorflow/tfjs-core', external: true } : null;
    },
    transform(code) {
      if (!IMPORT.test(code)) return null;
      // First, so that the registrations run before this module's own imports of tfjs.
      return { code: `import ${JSON.stringify(setup)};\n${code}`, map: null };
    },
  };
}

/**
 * Where each file the library refers to lands in dist-lib/: public/'s files at their own paths
 * under assets/ (checkpoints/agent/weights.bin, reference-runs.json), other files (tfjs's .wasm)
 * by their own name, the stylesheet as style.css. The checkpoints' manifests (inlined in the
 * bundle) are written beside their weights too, so dist-lib/assets/ is a complete `asset-base`.
 */
export function publicLayout(root: string): { assetFileNames: (a: { names: string[]; originalFileNames: string[] }) => string; plugin: Plugin } {
  const pub = resolve(root, 'public');
  const assetFileNames = (a: { names: string[]; originalFileNames: string[] }): string => {
    const name = a.names[0] ?? 'asset';
    if (name.endsWith('.css')) return 'style.css';
    const source = a.originalFileNames[0];
    const inPublic = source && relative(pub, resolve(root, source));
    if (inPublic && !inPublic.startsWith('..')) return posix.join('assets', inPublic.split('\\').join('/'));
    return `assets/${name}`;
  };
  const plugin: Plugin = {
    name: 'plate:manifests-beside-weights',
    generateBundle(_options, bundle) {
      // The weights in byte planes: lossless, and 62 KB smaller in the tarball (src/model/byte-planes.ts).
      for (const file of Object.values(bundle)) {
        if (file.type === 'asset' && /^assets\/checkpoints\/[^/]+\/weights\.bin$/.test(file.fileName)) {
          const plain = typeof file.source === 'string' ? Buffer.from(file.source) : file.source;
          file.source = new Uint8Array(toBytePlanes(plain.buffer.slice(plain.byteOffset, plain.byteOffset + plain.byteLength) as ArrayBuffer));
        }
      }
      for (const name of readdirSync(resolve(pub, 'checkpoints'))) {
        const path = `checkpoints/${name}/manifest.json`;
        this.emitFile({ type: 'asset', fileName: `assets/${path}`, source: readFileSync(resolve(pub, path)) });
      }
    },
  };
  return { assetFileNames, plugin };
}
