// npm run build:lib: everything the package ships, built once here, so that a site's bundler only
// copies files (docs/embedding.md, "How it is built"). In dist-lib/:
//   multi-turn-rl-plate.js     the entry for bundlers: <MultiTurnRLPlate /> and <plate-multi-turn-rl>,
//                              'use client', React the site's; d3 inside. Its files are named by
//                              `new URL('./plate-<version>/…', import.meta.url)`.
//   style.css                  its stylesheet
//   plate-<version>/           the self-contained folder, which the entry's URLs point into:
//     plate-multi-turn-rl.js   the element with React, for a page with no bundler (+ .css)
//     training.worker.mjs      the training worker: tfjs-core, the CPU backend, the whole trainer
//     tfjs-backend-{wasm,webgl,webgpu}.mjs   each backend alone, imported by the worker by URL
//                              when it tries that backend; tfjs-core comes from the worker
//     tfjs-backend-wasm-simd.wasm, checkpoints/{agent,pretrained,agent-three-calls}/, reference-runs{,-three-calls}.json
// The declarations (dist-lib/multi-turn-rl-plate.d.ts) follow, from scripts/build/lib-types.ts.
// A new file the worker loads (another .wasm) goes in the folder here, in FOLDER (src/ui/assets.ts),
// and in prebuiltFiles (scripts/build/lib-plugins.ts), and reaches the worker by URL as tfjs's .wasm does.
import react from '@vitejs/plugin-react';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type InlineConfig, type Rolldown } from 'vite';
import { toBytePlanes } from '../../src/model/byte-planes';
import { BYTES_PER_VALUE, storedDtype } from '../../src/model/checkpoint';
import { FOLDER } from '../../src/ui/assets';
import { eagerParts, tfjsBrowserAlias } from '../../vite.config';
import { main } from '../../src/node/args';
import { readCheckpointFiles } from '../../src/node/checkpoint-fs';
import {
  exportedNames,
  noBundledBackends,
  prebuiltFiles,
  PROVIDED_KEY,
  providedTfjs,
  provideTfjs,
  usedNames,
  type ProvidedPackage,
} from './lib-plugins';

const ROOT = resolve(import.meta.dirname, '../..');
const OUT = join(ROOT, 'dist-lib');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** The folder's name carries the version: a site can serve it as immutable, and two versions side by side. */
export const FOLDER_NAME = `plate-${VERSION}`;
const PLATE = join(OUT, FOLDER_NAME);
const KEY = PROVIDED_KEY(VERSION);
const src = (p: string) => join(ROOT, 'src', p);

/** What every build here shares: a production build (vitest would set NODE_ENV=test), no public/, minified. */
const base = (outDir: string): InlineConfig => ({
  configFile: false,
  root: ROOT,
  mode: 'production',
  logLevel: 'warn',
  publicDir: false,
  define: { 'process.env.NODE_ENV': '"production"' },
  build: {
    outDir,
    emptyOutDir: false,
    target: 'es2022',
    minify: true,
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    copyPublicDir: false,
  },
});

/** Every module any build here bundled, for the third-party notices. */
const bundled = new Set<string>();

const chunks = (out: Awaited<ReturnType<typeof build>>): Rolldown.OutputChunk[] => {
  const list = (Array.isArray(out) ? out : [out])
    .flatMap((o) => ('output' in o ? o.output : []))
    .filter((f): f is Rolldown.OutputChunk => f.type === 'chunk');
  for (const c of list) for (const id of Object.keys(c.modules)) bundled.add(id);
  return list;
};

/** Each backend alone, reading tfjs-core from the worker: returns the names each used. */
async function buildBackends(): Promise<Record<ProvidedPackage, Set<string>>> {
  const names = exportedNames(ROOT);
  const used: Record<ProvidedPackage, Set<string>> = { core: new Set(), cpu: new Set() };
  for (const [backend, file] of Object.entries(FOLDER.backends)) {
    const pkg = `@tensorflow/tfjs-backend-${backend}`;
    const entry = join(
      ROOT,
      'node_modules',
      pkg,
      (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { module: string }).module,
    );
    const config = base(PLATE);
    const out = await build({
      ...config,
      plugins: [providedTfjs(KEY, names)],
      build: {
        ...config.build,
        rolldownOptions: {
          input: { [file.replace(/\.mjs$/, '')]: entry },
          preserveEntrySignatures: 'strict',
          output: { format: 'es', entryFileNames: '[name].mjs', codeSplitting: false },
        },
      },
    });
    const [chunk] = chunks(out);
    for (const [k, list] of Object.entries(usedNames(chunk!.modules)))
      for (const n of list) used[k as ProvidedPackage].add(n);
  }
  return used;
}

/** The worker: the page's own worker source, with tfjs provided to the backends and none bundled. */
async function buildWorker(used: Record<ProvidedPackage, Set<string>>): Promise<void> {
  const config = base(PLATE);
  const entry = src('worker/training.worker.ts');
  const list = Object.fromEntries(Object.entries(used).map(([k, s]) => [k, [...s].sort()])) as Record<
    ProvidedPackage,
    string[]
  >;
  chunks(
    await build({
      ...config,
      resolve: { alias: tfjsBrowserAlias },
      plugins: [provideTfjs(KEY, entry, list), noBundledBackends(src('worker/backend-modules.ts'))],
      build: {
        ...config.build,
        rolldownOptions: {
          input: { [FOLDER.worker.replace(/\.mjs$/, '')]: entry },
          output: { format: 'es', entryFileNames: '[name].mjs', codeSplitting: false },
        },
      },
    }),
  );
}

/** The page's code as a library: the entry for bundlers (React external) or the folder's element (React inside). */
async function buildPageCode(kind: 'entry' | 'element'): Promise<void> {
  const entry = kind === 'entry';
  const config = base(entry ? OUT : PLATE);
  chunks(
    await build({
      ...config,
      plugins: [
        react(),
        // One file each for the entry and the element: a part the page loads when wanted comes
        // with its code already.
        eagerParts(),
        prebuiltFiles({
          module: src('ui/bundled-assets.ts'),
          dir: entry ? `./${FOLDER_NAME}/` : './',
          folder: `${FOLDER_NAME}/`,
          home: 'multi-turn-rl-plate/dist-lib/',
          root: ROOT,
        }),
      ],
      build: {
        ...config.build,
        cssCodeSplit: false,
        lib: {
          entry: entry ? src('ui/lib.ts') : src('ui/element-folder.ts'),
          formats: ['es'],
          fileName: () => (entry ? 'multi-turn-rl-plate.js' : FOLDER.element),
          cssFileName: entry ? 'style' : FOLDER.stylesheet.replace(/\.css$/, ''),
        },
        rolldownOptions: {
          // React is the site's (a peer) in the entry; the folder brings its own.
          external: entry ? (id: string) => /^react(-dom)?(\/|$)/.test(id) : [],
          // A Server Components page imports the component directly (Next.js's app router).
          // Lib mode keeps whitespace unless told; the site's bundler minifies again anyway.
          output: { minify: true, ...(entry && { banner: "'use client';" }) },
        },
      },
    }),
  );
}

/**
 * The licences of the packages the builds bundled (tfjs's Apache-2.0 asks for its text to travel
 * with copies, and the minifier drops the files' own notices): one file in the folder.
 */
function writeNotices(): string[] {
  const packages = new Map<string, string>();
  for (const id of bundled) {
    const m = /^(.*\/node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(id.replace(/^\0/, ''));
    if (m && !packages.has(m[2]!)) packages.set(m[2]!, m[1]!);
  }
  const names = [...packages.keys()].sort();
  const sections = names.map((name) => {
    const dir = packages.get(name)!;
    const { version, license } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      version: string;
      license?: string;
    };
    const file = readdirSync(dir).find((f) => /^licen[cs]e(\.(md|txt))?$/i.test(f));
    if (!license && !file) throw new Error(`lib-build: ${name} names no licence`);
    const text = file
      ? readFileSync(join(dir, file), 'utf8').trim()
      : `(The package ships no licence file; its package.json names ${license}.)`;
    return `${name} ${version} (${license ?? 'see below'})\n\n${text}\n`;
  });
  const head = `Packages bundled into multi-turn-rl-plate ${VERSION}'s files, with their licences.\n`;
  writeFileSync(join(PLATE, FOLDER.notices), [head, ...sections].join(`\n${'-'.repeat(72)}\n\n`));
  return names;
}

/** The data files, as public/ lays them out; the weights in byte planes (src/model/byte-planes.ts: ~7% smaller gzipped). */
function copyFiles(): void {
  for (const k of ['agent', 'pretrained', 'agentThreeCalls'] as const) {
    const dir = join(PLATE, FOLDER.checkpoints[k]);
    mkdirSync(dir, { recursive: true });
    const { manifest, weights } = readCheckpointFiles(join(ROOT, 'public', FOLDER.checkpoints[k]));
    copyFileSync(join(ROOT, 'public', FOLDER.checkpoints[k], 'manifest.json'), join(dir, 'manifest.json'));
    const planes = toBytePlanes(weights, BYTES_PER_VALUE[storedDtype(manifest)]);
    writeFileSync(join(dir, 'weights.bin'), new Uint8Array(planes));
  }
  for (const f of [FOLDER.referenceRuns, FOLDER.referenceRunsThreeCalls])
    copyFileSync(join(ROOT, 'public', f), join(PLATE, f));
  copyFileSync(join(ROOT, 'node_modules/@tensorflow/tfjs-backend-wasm/dist', FOLDER.wasm), join(PLATE, FOLDER.wasm));
}

/** Every file under `dir`, relative. */
const listing = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));

await main(async () => {
  const t0 = performance.now();
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(PLATE, { recursive: true });
  const used = await buildBackends();
  await buildWorker(used);
  await buildPageCode('entry');
  await buildPageCode('element');
  copyFiles();
  // A stylesheet has no exports; its declaration lets TypeScript resolve the import (noUncheckedSideEffectImports, attw).
  writeFileSync(
    join(OUT, 'style.d.ts'),
    "// The plate's stylesheet: imported for its rules, it exports nothing.\nexport {};\n",
  );
  const notices = writeNotices();
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  if (pkg.exports['./plate/*'] !== `./dist-lib/${FOLDER_NAME}/*`)
    throw new Error(`lib-build: package.json's exports["./plate/*"] should be "./dist-lib/${FOLDER_NAME}/*"`);
  const files = listing(OUT).sort();
  const unexpected = files.filter(
    (f) => !f.startsWith(`${FOLDER_NAME}/`) && !['multi-turn-rl-plate.js', 'style.css', 'style.d.ts'].includes(f),
  );
  if (unexpected.length) throw new Error(`lib-build: unexpected files in dist-lib/: ${unexpected.join(', ')}`);
  console.log(
    `lib-build: ${files.length} files in dist-lib/ (tfjs provided to the backends: ${used.core.size} names of tfjs-core, ${used.cpu.size} of the CPU backend's kernels; ${notices.length} packages' licences) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
});
