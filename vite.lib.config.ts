// The library build: <MultiTurnRLPlate /> and <plate-multi-turn-rl> in dist-lib/, React
// external, with its TypeScript declarations (npm run build:lib). The worker is one file under
// dist-lib/assets/ (no chunks) that a consumer's bundler builds again as its own worker; the
// .wasm files, the checkpoints' weights and the reference runs sit beside it, referenced by
// `new URL(…, import.meta.url)`, so the consumer's bundler emits them too (src/ui/bundled-assets.ts).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { tfjsBrowserAlias } from './vite.config';

export default defineConfig({
  base: './',
  plugins: [react()],
  resolve: { alias: tfjsBrowserAlias },
  worker: { format: 'es', rolldownOptions: { output: { codeSplitting: false, minify: true } } },
  build: {
    outDir: 'dist-lib',
    emptyOutDir: true,
    copyPublicDir: false,
    cssCodeSplit: false,
    // Minified: smaller in the tarball (the consumer's bundler would minify it anyway).
    minify: true,
    lib: {
      entry: { 'multi-turn-rl-plate': 'src/ui/lib.ts' },
      formats: ['es'],
      cssFileName: 'style',
    },
    rolldownOptions: {
      // react, react-dom and every subpath (jsx-runtime, jsx-dev-runtime, client): the consumer's.
      external: (id) => /^react(-dom)?(\/|$)/.test(id),
      output: { assetFileNames: (a) => (a.names[0]?.endsWith('.css') ? 'style.css' : 'assets/[name]-[hash][extname]') },
    },
  },
});
