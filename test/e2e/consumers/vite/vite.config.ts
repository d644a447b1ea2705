// The consumer's own Vite config. Two lines are about the plate, and the README says why:
//   worker.format 'es': Vite builds workers as classic scripts by default, which cannot be split,
//     so tfjs's WebGL and WebGPU backends would load with every first visit;
//   optimizeDeps.entries: in the dev server, the worker's own imports (tfjs) are pre-bundled
//     only if the dependency scan starts from the worker too (its default start: the HTML files).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  optimizeDeps: { entries: ['**/*.html', 'node_modules/multi-turn-rl-plate/dist-lib/training.worker.js'] },
  build: { rolldownOptions: { input: { main: 'index.html', elements: 'elements.html' } } },
});
