// The first thing `npm start`, `npm run build` and `npm run preview` do is load vite.config.ts;
// whatever Vite says about that file is the first output a newcomer reads.
import { resolve } from 'node:path';
import { createLogger, loadConfigFromFile, type ConfigEnv } from 'vite';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Loads the project's config as the CLI does (Vite's default loader) and returns what it warned. */
async function warningsLoading(env: ConfigEnv): Promise<string[]> {
  const said: string[] = [];
  const logger = createLogger('info');
  logger.warn = (msg) => void said.push(msg);
  logger.warnOnce = (msg) => void said.push(msg);
  logger.error = (msg) => void said.push(msg);
  const loaded = await loadConfigFromFile(env, resolve(ROOT, 'vite.config.ts'), ROOT, 'info', logger);
  expect(loaded?.path).toBe(resolve(ROOT, 'vite.config.ts'));
  return said;
}

describe('vite.config.ts', () => {
  it.each([
    ['npm run build', { command: 'build', mode: 'production' }],
    ['npm start', { command: 'serve', mode: 'development' }],
    ['npm run preview', { command: 'serve', mode: 'production', isPreview: true }],
  ] as const)('loads for %s with no warning (no import Node could not load natively)', async (_, env) => {
    expect(await warningsLoading(env)).toEqual([]);
  });
});
