// `npm run test:sites`: the package in fresh sites of every framework the volume may be built
// with (test/sites/apps/<kind>/), installed from the packed tarball. Its own command, after `npm test`
// (.ci/run): the installs and the frameworks' builds take minutes. One file at a time: each
// builds, serves and drives a browser, and the machine has two cores.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/sites/**/*.test.ts'],
    globalSetup: ['test/sites/setup.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 600_000,
  },
});
