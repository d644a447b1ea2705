// The library build (npm run build:lib): ES modules a consumer's bundler builds again, in dist-lib/.
//   multi-turn-rl-plate.js   <MultiTurnRLPlate /> and <plate-multi-turn-rl>, with its declarations
//   training.worker.js        the training worker, started by the literal
//                            `new Worker(new URL('./training.worker.js', import.meta.url), { type: 'module' })`
//   *-[hash].js              chunks the two share
//   assets/                  tfjs's SIMD .wasm, the checkpoints, the reference runs: public/'s layout,
//                            referenced by `new URL('./assets/…', import.meta.url)`
//   style.css
// React, d3 and tfjs are the package's dependencies (React a peer), not copied in: the consumer's
// bundler resolves them once for the page and the worker and splits tfjs's backends into chunks
// that load only when the worker tries that backend. scripts/lib-plugins.ts says how.
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { publicLayout, tfjsForTheConsumer, workerForTheConsumer } from './scripts/build/lib-plugins';

/**
 * The package's runtime dependencies and peers: imported by name, resolved by the consumer.
 * (`@tensorflow/tfjs` itself becomes tfjs-core: tfjsForTheConsumer.)
 */
const external = (id: string) => !id.includes('?') && /^(react|react-dom|d3|d3-[a-z-]+|@tensorflow\/tfjs-[a-z-]+)(\/|$)/.test(id);

const layout = publicLayout(import.meta.dirname);

// The library is a production build whoever runs it: under vitest (NODE_ENV=test) Vite would
// otherwise build for development, and React's plugin would write jsxDEV calls that a
// consumer's production React does not have.
process.env.NODE_ENV = 'production';

export default defineConfig({
  base: './',
  // The library imports the files it ships (src/ui/bundled-assets.ts); public/ is not its folder.
  publicDir: false,
  plugins: [react(), workerForTheConsumer(), tfjsForTheConsumer(resolve(import.meta.dirname, 'src/model/tfjs-setup.ts')), layout.plugin],
  build: {
    outDir: 'dist-lib',
    emptyOutDir: true,
    cssCodeSplit: false,
    // The library's own files: the consumer's bundler decides what to inline.
    assetsInlineLimit: 0,
    lib: {
      entry: { 'multi-turn-rl-plate': 'src/ui/lib.ts' },
      formats: ['es'],
      cssFileName: 'style',
    },
    rolldownOptions: {
      external,
      output: {
        entryFileNames: '[name].js',
        // Modules the page and the worker share (the config, the protocol's names).
        chunkFileNames: 'shared-[hash].js',
        assetFileNames: layout.assetFileNames,
        // Smaller in the tarball (Vite's lib mode would keep the whitespace); the consumer's
        // bundler minifies again anyway.
        minify: true,
      },
    },
  },
});
