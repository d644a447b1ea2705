// The React versions the package takes: what package.json's peer range claims, and that the code
// uses nothing later than the lowest claimed. (React 18.0 and 19.0 sites were built from the packed
// tarball and trained in Chromium by hand; an older React never reaches the page: npm refuses the
// peer range, and a forced install stops the site's bundler at "Could not resolve react-dom/client".)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The oldest React the package runs on: createRoot, useId, useInsertionEffect and startTransition are 18.0's. */
const REACT_MIN_MAJOR = 18;
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { peerDependencies: Record<string, string> };

/** React's and React DOM's exports that React 18.0 lacks (react 19.0's changelog, 19.1, 19.2: useEffectEvent, Activity). */
const AFTER_18: Record<string, readonly string[]> = {
  react: [
    'use',
    'useActionState',
    'useOptimistic',
    'useEffectEvent',
    'Activity',
    'cache',
    'cacheSignal',
    'captureOwnerStack',
  ],
  'react-dom': [
    'useFormStatus',
    'useFormState',
    'requestFormReset',
    'preload',
    'preinit',
    'preconnect',
    'prefetchDNS',
    'preloadModule',
    'preinitModule',
  ],
};

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [join(dir, d.name)] : [],
  );

/** Every name the page's code imports from `module` (type-only imports aside). */
function importedFrom(module: string): Set<string> {
  const names = new Set<string>();
  const re = new RegExp(`import\\s+(?!type\\b)\\{([^}]*)\\}\\s+from\\s+'${module}(?:/[a-z]+)?'`, 'g');
  for (const file of sources('src'))
    for (const m of readFileSync(file, 'utf8').matchAll(re))
      for (const part of m[1]!.split(',')) {
        const name = part.trim();
        if (name && !name.startsWith('type ')) names.add(name.split(/\s+as\s+/)[0]!);
      }
  return names;
}

describe('the React the plate needs', () => {
  it('is what the peer range claims at its lowest, for react and react-dom alike', () => {
    for (const dep of ['react', 'react-dom']) {
      const lowest = Math.min(...[...pkg.peerDependencies[dep]!.matchAll(/\^(\d+)\.0\.0/g)].map((m) => Number(m[1])));
      expect(lowest, dep).toBe(REACT_MIN_MAJOR);
    }
  });

  it('is used through no API that the lowest claimed React lacks (useEffectEvent is 19.2’s)', () => {
    for (const [module, later] of Object.entries(AFTER_18)) {
      const used = importedFrom(module);
      expect(used.size, module).toBeGreaterThan(module === 'react' ? 10 : 0);
      expect(
        later.filter((n) => used.has(n)),
        module,
      ).toEqual([]);
    }
  });

  it('renders on a site’s server without React 18’s useLayoutEffect warning (only the helper that avoids it imports it)', () => {
    const users = sources('src').filter((f) => /\buseLayoutEffect\b/.test(readFileSync(f, 'utf8')));
    expect(users).toEqual([join('src', 'ui', 'useClientLayoutEffect.ts')]);
  });
});
