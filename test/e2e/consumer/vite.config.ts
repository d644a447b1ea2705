// The consumer's own Vite config: nothing about the plate in it (no alias, no copy, no assetBase).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  plugins: [react()],
  build: { rolldownOptions: { input: { main: 'index.html', elements: 'elements.html' } } },
});
