// Two Vite plugins for the library build (vite.lib.config.ts), so that the package is ES modules
// a consumer's bundler understands:
//   - the training worker stays a worker for the consumer's bundler to build, with code-splitting;
//   - the plate's files (.wasm, weights, manifests, reference runs) keep the layout of public/
//     under dist-lib/assets/, with fixed names, so a site can copy that folder for `asset-base`.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, posix, relative, resolve } from 'node:path';
import type { Plugin } from 'vite';

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
        if (chunk.code.includes('__PLATE_WORKER_')) this.error(`${chunk.fileName}: a worker URL was minified into a form this plugin cannot restore`);
      }
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
    generateBundle() {
      for (const name of readdirSync(resolve(pub, 'checkpoints'))) {
        const path = `checkpoints/${name}/manifest.json`;
        this.emitFile({ type: 'asset', fileName: `assets/${path}`, source: readFileSync(resolve(pub, path)) });
      }
    },
  };
  return { assetFileNames, plugin };
}
