// The package as volume sites get it, for the package test and the bench: `npm pack` (prepack
// builds the library first, so the tarball is never stale), then a fresh app per bundler from
// test/e2e/consumers/<bundler>/, installing the tarball and the app's own tools from npm's cache
// (`--prefer-offline`: `npm ci` of this repository put every one of them there, at the versions
// its lockfile pins), then the app's own build.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../../..');
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };

export type Bundler = 'vite' | 'webpack';

/** Each app's own tools (React is the plate's peer), at the versions this repository locks. */
const TOOLS: Record<Bundler, string[]> = {
  vite: ['react', 'react-dom', 'vite', '@vitejs/plugin-react', 'typescript', '@types/react', '@types/react-dom'],
  webpack: ['react', 'react-dom', 'webpack', 'webpack-cli', 'css-loader', 'style-loader'],
};
const locked = (p: string) => `${p}@${lock.packages[`node_modules/${p}`]!.version}`;

/** The tools decide their own mode: vitest's NODE_ENV=test would make the app's build a development one. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_ENV'));
const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

export interface Packed {
  tarball: string;
  /** The tarball's bytes, as npm reports them. */
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

export function pack(into: string): Packed {
  const out = run('npm', ['pack', '--json', '--pack-destination', into], ROOT);
  const [p] = JSON.parse(out.slice(out.lastIndexOf('\n[') + 1)) as (Omit<Packed, 'tarball'> & { filename: string })[]; // after the build's own output
  return { tarball: join(into, p!.filename), size: p!.size, unpackedSize: p!.unpackedSize, files: p!.files };
}

/** A fresh app of `bundler` under `work`, with the tarball and its tools installed. */
export function installApp(bundler: Bundler, work: string, tarball: string): string {
  const app = join(work, `volume-site-${bundler}`);
  cpSync(join(ROOT, 'test/e2e/consumers', bundler), app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: `volume-site-${bundler}`, private: true, type: 'module' }));
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...TOOLS[bundler].map(locked)], app);
  return app;
}

/** The app's own production build: the folder to serve, and what the bundler printed. */
export function buildApp(bundler: Bundler, app: string): { dir: string; log: string } {
  const log =
    bundler === 'vite'
      ? run(join(app, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], app)
      : run(join(app, 'node_modules/.bin/webpack'), [], app);
  if (bundler === 'webpack') copyFileSync(join(app, 'index.html'), join(app, 'dist/index.html')); // the site's static page
  return { dir: join(app, 'dist'), log };
}

/**
 * The standalone page's production build (`npm run build`'s output), the budgets' yardstick: built
 * in a child process, since a Vite build inside vitest (NODE_ENV=test) would be a development one.
 */
export function buildStandalone(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plate-standalone-'));
  run(join(ROOT, 'node_modules/.bin/vite'), ['build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'], ROOT);
  return dir;
}
