/**
 * A URL of the package's own files, as seen from Vite's dev pre-bundle. Before Vite 8 the
 * pre-bundler copies a dependency's code into node_modules/.vite/deps/ but leaves its
 * `new URL('./file', import.meta.url)` pointing there, where the file is not (vitejs/vite#8427;
 * Vite 8 rewrites them, vitejs/vite#21434). Astro 5 runs Vite 6, so its dev server would ask for
 * node_modules/.vite/deps/plate-<version>/training.worker.mjs: this sends it to the package's
 * own folder, node_modules/<package>/<folder>/…, which every Vite dev server serves. Any other
 * URL (a build's, Vite 8's, webpack's, esbuild's, the file:// one in Node) passes unchanged.
 * folder: the files' folder as the bundle names it ('plate-0.3.0/'); home: where it sits under
 * node_modules/ ('multi-turn-rl-plate/dist-lib/').
 */
export function unprebundled(url: URL, folder: string, home: string): string {
  const m = /^(.*\/node_modules\/)\.vite\/deps(?:_[\w-]+)?\/(.*)$/.exec(url.href);
  if (!m || !m[2]!.startsWith(folder)) return url.href;
  return `${m[1]}${home}${m[2]}`;
}
