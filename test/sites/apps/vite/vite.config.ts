// A Vite react-ts site's own config, with nothing about the plate: React's plugin, a relative base
// (the site is served from a sub-path) and the site's three pages.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  plugins: [react()],
  build: { rolldownOptions: { input: { main: 'index.html', elements: 'elements.html', empty: 'empty.html' } } },
});
