import { describe, expect, it } from 'vitest';
import { unprebundled } from '../../src/ui/prebundled';

const FOLDER = 'plate-0.3.0/';
const HOME = 'multi-turn-rl-plate/dist-lib/';
const at = (href: string) => unprebundled(new URL(href), FOLDER, HOME);

describe("the package's file URLs, seen from Vite's dev pre-bundle", () => {
  it('point back into the package when Vite before 8 left them beside its pre-bundled copy', () => {
    expect(at('http://localhost:4321/node_modules/.vite/deps/plate-0.3.0/training.worker.mjs')).toBe(
      'http://localhost:4321/node_modules/multi-turn-rl-plate/dist-lib/plate-0.3.0/training.worker.mjs',
    );
    // A pre-bundle under a sub-path, and Vite's temporary deps folder while it re-optimises.
    expect(
      at('https://site.example/docs/node_modules/.vite/deps_temp_1a2b/plate-0.3.0/checkpoints/agent/weights.bin'),
    ).toBe(
      'https://site.example/docs/node_modules/multi-turn-rl-plate/dist-lib/plate-0.3.0/checkpoints/agent/weights.bin',
    );
  });

  it('pass unchanged everywhere else: a build’s, Vite 8’s rewrite, Node’s file URL, another folder in the deps', () => {
    for (const href of [
      'https://site.example/assets/training.worker-Bq1x.mjs',
      'http://localhost:5173/node_modules/multi-turn-rl-plate/dist-lib/plate-0.3.0/training.worker.mjs',
      'file:///srv/site/node_modules/multi-turn-rl-plate/dist-lib/plate-0.3.0/reference-runs.json',
      'http://localhost:4321/node_modules/.vite/deps/other-package/file.wasm',
    ])
      expect(at(href), href).toBe(href);
  });
});
