import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Relative base: the built page works from any sub-path of any static host.
export default defineConfig({
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
