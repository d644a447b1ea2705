// Vite plugins for the library build (scripts/build/lib-build.ts), which builds everything the package
// ships once, so that a site's bundler only copies files:
//   - tfjs's WASM, WebGL and WebGPU backends as modules of their own that take tfjs-core (and the
//     CPU backend's shared kernels) from the worker that imports them (providedTfjs, provideTfjs);
//   - the training worker without a backend of its own (noBundledBackends);
//   - the plate's files named by `new URL('./plate-<version>/…', import.meta.url)`, the one form
//     Vite, webpack, Turbopack and esbuild-with-a-copy all read (prebuiltFiles).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { FOLDER } from '../../src/ui/assets';

/** The global under which the worker hands tfjs to the backend modules it imports (version-keyed: two packages never mix). */
export const PROVIDED_KEY = (version: string) => `multi-turn-rl-plate ${version}: tfjs`;

/** What the backends import, by package: tfjs-core's index, and the CPU backend's kernels that WebGL, WebGPU and WASM share. */
const PROVIDED = {
  core: '@tensorflow/tfjs-core',
  cpu: '@tensorflow/tfjs-backend-cpu/dist/shared',
} as const;
export type ProvidedPackage = keyof typeof PROVIDED;

/** Every name each provided package exports. */
export function exportedNames(root: string): Record<ProvidedPackage, string[]> {
  const core = Object.keys(createRequire(resolve(root, 'package.json'))(PROVIDED.core) as object).filter(
    (n) => n !== 'default' && n !== '__esModule',
  );
  const shared = readFileSync(resolve(root, 'node_modules', `${PROVIDED.cpu}.js`), 'utf8');
  const cpu = [...shared.matchAll(/^export \{([^}]+)\} from/gm)].flatMap((m) => m[1]!.split(',').map((n) => n.trim()));
  return { core, cpu };
}

const VIRTUAL = '\0plate-provided:';

/**
 * In a backend's build: tfjs-core and the CPU backend's shared kernels become modules that read
 * each name off the global the worker set (provideTfjs). Each read is pure, so the bundler keeps
 * only the names this backend uses, which the output's `modules[…].renderedExports` lists.
 */
export function providedTfjs(key: string, names: Record<ProvidedPackage, string[]>): Plugin {
  const byId = Object.fromEntries(Object.entries(PROVIDED).map(([k, id]) => [id, k as ProvidedPackage]));
  return {
    name: 'plate:provided-tfjs',
    enforce: 'pre',
    resolveId(id) {
      if (byId[id]) return VIRTUAL + byId[id];
      if (/^@tensorflow\/tfjs-(core|backend-cpu)(\/|$)/.test(id))
        this.error(
          `a backend imports ${id}, which the worker does not provide (scripts/build/lib-plugins.ts, PROVIDED)`,
        );
      return null;
    },
    load(id) {
      if (!id.startsWith(VIRTUAL)) return null;
      const pkg = id.slice(VIRTUAL.length) as ProvidedPackage;
      const from = `globalThis[Symbol.for(${JSON.stringify(key)})].${pkg}`;
      return names[pkg].map((n) => `export const ${n} = /* @__PURE__ */ (() => ${from}.${n})();`).join('\n');
    },
  };
}

/** The names a backend's output uses of each provided package. */
export function usedNames(modules: Record<string, { renderedExports: string[] }>): Record<ProvidedPackage, string[]> {
  return Object.fromEntries(
    (Object.keys(PROVIDED) as ProvidedPackage[]).map((k) => [k, modules[VIRTUAL + k]?.renderedExports ?? []]),
  ) as Record<ProvidedPackage, string[]>;
}

/**
 * In the worker's build: before the worker's own code runs, the names the backends use are set on
 * the global they read (and only those: the rest of tfjs-core stays tree-shaken).
 */
export function provideTfjs(key: string, entry: string, used: Record<ProvidedPackage, string[]>): Plugin {
  const id = '\0plate-provide-tfjs';
  return {
    name: 'plate:provide-tfjs',
    enforce: 'pre',
    resolveId: (source) => (source === id ? id : null),
    load(source) {
      if (source !== id) return null;
      const lines = (Object.keys(PROVIDED) as ProvidedPackage[]).map(
        (k) => `import { ${used[k].map((n) => `${n} as ${k}_${n}`).join(', ')} } from ${JSON.stringify(PROVIDED[k])};`,
      );
      const object = (Object.keys(PROVIDED) as ProvidedPackage[]).map(
        (k) => `${k}: { ${used[k].map((n) => `${n}: ${k}_${n}`).join(', ')} }`,
      );
      return `${lines.join('\n')}\nglobalThis[Symbol.for(${JSON.stringify(key)})] = { ${object.join(', ')} };\n`;
    },
    transform(code, file) {
      return file === entry ? { code: `import ${JSON.stringify(id)};\n${code}`, map: null } : null;
    },
  };
}

/** In the worker's build: src/worker/backend-modules.ts's dynamic imports give way to URLs from the page. */
export function noBundledBackends(file: string): Plugin {
  return {
    name: 'plate:no-bundled-backends',
    enforce: 'pre',
    load(id) {
      if (id !== file) return null;
      const none = (b: string) =>
        `${b}: () => Promise.reject(new Error('the package’s worker bundles no ${b} backend: the page names its module’s URL'))`;
      return `export const BUNDLED_BACKENDS = { ${['wasm', 'webgl', 'webgpu'].map(none).join(', ')} };\n`;
    },
  };
}

/**
 * In the builds of the page's code (the package's entry, the folder's element): src/ui/bundled-assets.ts
 * becomes the package's files, each `new URL('<dir>file', import.meta.url)` (dir: './plate-<version>/'
 * from the entry, './' from inside the folder), which the site's bundler emits or which resolve
 * beside the script where nothing bundles it. The manifests travel inside the bundle, as the page's do.
 * The literal is written after minification, from a placeholder the minifier cannot reshape.
 */
export function prebuiltFiles(opts: {
  module: string;
  dir: string;
  folder: string;
  home: string;
  root: string;
}): Plugin {
  const { module, dir, folder, home, root } = opts;
  const at = (file: string) => `file(new URL(__PLATE_FILE__(${JSON.stringify(file)}), import.meta.url))`;
  const src = (p: string) => JSON.stringify(resolve(root, p));
  return {
    name: 'plate:prebuilt-files',
    enforce: 'pre',
    load(id) {
      if (id !== module) return null;
      const weights = (k: 'agent' | 'pretrained' | 'agentThreeCalls') => at(`${FOLDER.checkpoints[k]}weights.bin`);
      const backends = Object.entries(FOLDER.backends).map(([b, f]) => `${b}: ${at(f)}`);
      return `
import agentManifest from ${src('public/checkpoints/agent/manifest.json')};
import pretrainedManifest from ${src('public/checkpoints/pretrained/manifest.json')};
import agentThreeCallsManifest from ${src('public/checkpoints/agent-three-calls/manifest.json')};
import { wasmFiles } from ${src('src/ui/assets.ts')};
import { unprebundled } from ${src('src/ui/prebundled.ts')};
const file = (url) => unprebundled(url, ${JSON.stringify(folder)}, ${JSON.stringify(home)});
export const BUNDLED = {
  checkpoints: {
    agent: { manifest: agentManifest, weights: ${weights('agent')} },
    pretrained: { manifest: pretrainedManifest, weights: ${weights('pretrained')} },
    agentThreeCalls: { manifest: agentThreeCallsManifest, weights: ${weights('agentThreeCalls')} },
  },
  referenceRuns: ${at(FOLDER.referenceRuns)},
  referenceRunsThreeCalls: ${at(FOLDER.referenceRunsThreeCalls)},
  wasm: wasmFiles(${at(FOLDER.wasm)}),
  worker: { url: ${at(FOLDER.worker)} },
  backends: { ${backends.join(', ')} },
};
`;
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        chunk.code = chunk.code.replace(/__PLATE_FILE__\((["'`])([^"'`]+)\1\)/g, (_m, _q, file: string) =>
          JSON.stringify(dir + file),
        );
        if (chunk.code.includes('__PLATE_FILE__'))
          this.error(`${chunk.fileName}: a file's URL was minified into a form this plugin cannot restore`);
      }
    },
  };
}
