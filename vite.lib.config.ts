// The library build: <MultiTurnRLPlate /> and <plate-multi-turn-rl> in dist-lib/, React
// external. public/ (the checkpoints, the reference runs) is copied beside the bundle. The
// worker is one self-contained file under dist-lib/assets/ (its .wasm files inlined, no chunks),
// so a consumer's bundler can copy it as an asset and it still runs.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  plugins: [react()],
  worker: { format: 'es', rolldownOptions: { output: { codeSplitting: false } } },
  build: {
    outDir: 'dist-lib',
    emptyOutDir: true,
    copyPublicDir: true,
    cssCodeSplit: false,
    lib: {
      entry: { 'multi-turn-rl-plate': 'src/ui/lib.ts' },
      formats: ['es'],
      cssFileName: 'style',
    },
    rolldownOptions: {
      // react, react-dom and every subpath (jsx-runtime, jsx-dev-runtime, client): the consumer's.
      external: (id) => /^react(-dom)?(\/|$)/.test(id),
    },
  },
});
