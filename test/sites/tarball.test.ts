// The tarball as the registry would get it: what it holds, that npm would publish it, that
// publint and arethetypeswrong find nothing wrong, and that what it ships is built — the worker
// and its backends as finished modules, the entry a client module that imports only React.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fromBytePlanes } from '../../src/model/byte-planes';
import { FOLDER } from '../../src/ui/assets';
import { FOLDER_NAME, ROOT } from '../browser/consumers';
import { removeSite } from '../browser/site';

const exec = promisify(execFile);
const packed = inject('packed');
const bin = (tool: string) => join(ROOT, 'node_modules/.bin', tool);

/**
 * The tarball's budget, in bytes as npm counts them: 1.3 MB. The package carries tfjs built (the
 * worker and three backends, ~290 KB gzipped), the folder's element with React (~120 KB), three
 * checkpoints (the worksheet model, the one-call and the three-call agent: ~180 KB gzipped each in
 * float16, whose low byte is noise to gzip), both agents' reference runs and tfjs's .wasm (137 KB).
 * docs/embedding.md gives today's size and what would bring it under its 1 MB aim.
 */
const TARBALL_BUDGET = 1_300_000;

let unpacked: string;
beforeAll(async () => {
  unpacked = mkdtempSync(join(tmpdir(), 'plate-tarball-'));
  await exec('tar', ['-xzf', packed.tarball, '-C', unpacked]);
});
afterAll(() => {
  if (unpacked) removeSite(unpacked);
});
const shipped = (path: string) => join(unpacked, 'package', path);

describe('the tarball', () => {
  it(`holds the entry, its declarations and styles, and the folder: a worker, three backends, the element, the files (${FOLDER_NAME}/)`, () => {
    const files = packed.files.map((f) => f.path).sort();
    for (const f of files) expect(f, f).toMatch(/^(package\.json|README\.md|CHANGELOG\.md|LICENSE|dist-lib\/.+)$/);
    const top = files.filter((f) => f.startsWith('dist-lib/') && !f.startsWith(`dist-lib/${FOLDER_NAME}/`));
    expect(top).toEqual([
      'dist-lib/multi-turn-rl-plate.d.ts',
      'dist-lib/multi-turn-rl-plate.js',
      'dist-lib/style.css',
      'dist-lib/style.d.ts',
    ]);
    const folder = files
      .filter((f) => f.startsWith(`dist-lib/${FOLDER_NAME}/`))
      .map((f) => f.slice(`dist-lib/${FOLDER_NAME}/`.length));
    expect(folder).toEqual(
      [
        `${FOLDER.checkpoints.agent}manifest.json`,
        `${FOLDER.checkpoints.agent}weights.bin`,
        `${FOLDER.checkpoints.pretrained}manifest.json`,
        `${FOLDER.checkpoints.pretrained}weights.bin`,
        `${FOLDER.checkpoints.agentThreeCalls}manifest.json`,
        `${FOLDER.checkpoints.agentThreeCalls}weights.bin`,
        FOLDER.element,
        FOLDER.stylesheet,
        FOLDER.referenceRuns,
        FOLDER.referenceRunsThreeCalls,
        FOLDER.notices,
        FOLDER.wasm,
        ...Object.values(FOLDER.backends),
        FOLDER.worker,
      ].sort(),
    );
    // The float16 weights travel in byte planes (smaller once gzipped) and give back public/'s very bits.
    for (const kind of ['agent', 'pretrained', 'agentThreeCalls'] as const) {
      const file = readFileSync(shipped(`dist-lib/${FOLDER_NAME}/${FOLDER.checkpoints[kind]}weights.bin`));
      const plain = Buffer.from(
        fromBytePlanes(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer, 2), // float16
      );
      expect(plain.equals(readFileSync(join(ROOT, `public/${FOLDER.checkpoints[kind]}weights.bin`))), kind).toBe(true);
    }
    const big = packed.files.filter((f) => /\.(bin|wasm|mjs)$/.test(f.path)).map((f) => `${f.path} ${f.size} B`);
    expect(packed.size, `tarball ${packed.size} B, budget ${TARBALL_BUDGET} B (${big.join(', ')})`).toBeLessThanOrEqual(
      TARBALL_BUDGET,
    );
  });

  it('says what npm and a site need: public, licensed, ESM with types, React as a peer and nothing else to install', () => {
    const pkg = JSON.parse(readFileSync(shipped('package.json'), 'utf8'));
    expect(pkg.private).toBeUndefined();
    expect(pkg).toMatchObject({
      name: 'multi-turn-rl-plate',
      type: 'module',
      license: 'MIT',
      types: './dist-lib/multi-turn-rl-plate.d.ts',
      sideEffects: ['*.css', './src/model/tfjs-browser.ts', './src/model/tfjs-setup.ts'],
    });
    expect(pkg.keywords.length).toBeGreaterThan(3);
    expect(pkg.exports['.']).toEqual({
      types: './dist-lib/multi-turn-rl-plate.d.ts',
      default: './dist-lib/multi-turn-rl-plate.js',
    });
    expect(pkg.exports['./plate/*']).toBe(`./dist-lib/${FOLDER_NAME}/*`);
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(['react', 'react-dom']);
    // tfjs and d3 are built into the files: a site installs nothing for them.
    expect(pkg.dependencies).toBeUndefined();
  });

  it('ships the code built: a client entry that imports only React, a worker and backends that import nothing by name', () => {
    const lib = shipped('dist-lib');
    const entry = readFileSync(join(lib, 'multi-turn-rl-plate.js'), 'utf8');
    expect(entry.startsWith("'use client';") || entry.startsWith('"use client";'), 'the first statement').toBe(true);
    const named = (code: string) =>
      [
        ...new Set([...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"'./][^"']*)["']/g)].map((m) => m[1]!)),
      ].sort();
    // react-dom: the portal that sets the figure's parts beside the plate's paragraphs (parts/Beside.tsx).
    expect(named(entry)).toEqual(['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime']);
    // Each file is named the one way every bundler reads (and esbuild leaves for the browser to resolve).
    for (const f of [FOLDER.worker, FOLDER.wasm, FOLDER.referenceRuns, ...Object.values(FOLDER.backends)]) {
      expect(entry, f).toContain(`new URL("./${FOLDER_NAME}/${f}",import.meta.url)`);
    }
    const folder = join(lib, FOLDER_NAME);
    for (const f of readdirSync(folder).filter((n) => /\.m?js$/.test(n))) {
      const code = readFileSync(join(folder, f), 'utf8');
      expect(named(code), f).toEqual([]);
      expect(code, f).not.toMatch(/__PLATE_FILE__|react\/jsx-dev-runtime/);
    }
    // The worker loads no backend of its own; each backend module holds its own code only.
    const worker = readFileSync(join(folder, FOLDER.worker), 'utf8');
    expect(worker).not.toContain('The WASM backend was already initialized');
    expect(readFileSync(join(folder, FOLDER.backends.wasm), 'utf8')).toContain(
      'The WASM backend was already initialized',
    );
  });

  it('is what npm would publish (npm publish --dry-run)', async () => {
    const { stdout, stderr } = await exec('npm', ['publish', '--dry-run', packed.tarball], { cwd: unpacked });
    expect(stdout + stderr).toMatch(/\+ multi-turn-rl-plate@\d+\.\d+\.\d+/);
  });

  it('has nothing publint reports', async () => {
    const { stdout } = await exec(bin('publint'), [packed.tarball, '--strict']);
    expect(stdout).toMatch(/All good!/);
  });

  it('resolves, with its types, for bundlers and Node 16+ (arethetypeswrong), as the ESM-only package it is', async () => {
    const run = await exec(bin('attw'), [packed.tarball, '--format', 'json']).catch((e: { stdout: string }) => e);
    const { problems } = (
      JSON.parse(run.stdout) as {
        analysis: { problems: { kind: string; entrypoint: string; resolutionKind: string }[] };
      }
    ).analysis;
    // Bundlers and Node 16+ only (node10 predates `exports`). A require() from CommonJS resolves to
    // ESM: the package ships ESM only, which Node ≥ 20.19 (its engines) requires natively.
    const counted = problems.filter((p) => p.resolutionKind !== 'node10' && p.kind !== 'CJSResolvesToESM');
    expect(counted).toEqual([]);
    expect(new Set(problems.filter((p) => p.kind === 'CJSResolvesToESM').map((p) => p.resolutionKind))).toEqual(
      new Set(['node16-cjs']),
    );
  });
});
