// The package as volume sites get it, for `npm run test:sites` and the package bench: `npm pack`
// (prepack builds the library first, so the tarball is never stale), then a fresh site of each
// kind from test/sites/apps/<kind>/ — its own package.json and lockfile, the tarball installed into
// it from npm's cache where it can (`--prefer-offline`) — built with its own build command, and
// for Vite, Astro and Next.js also run by its own dev server.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { serve } from './site';

export const ROOT = resolve(import.meta.dirname, '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** The package's self-contained folder, inside the tarball and node_modules. */
export const FOLDER_NAME = `plate-${VERSION}`;

/** react18: the esbuild site on the oldest React the package's peer range claims (test/sites/react-floor.test.ts). */
export type SiteKind = 'vite' | 'webpack' | 'esbuild' | 'react18' | 'astro' | 'next' | 'static';
export const DEV_SERVERS = ['vite', 'astro', 'next'] as const;
export type DevKind = (typeof DEV_SERVERS)[number];

/** What each site's build leaves to serve (Next.js serves itself: `next start`). */
const BUILT: Record<Exclude<SiteKind, 'next'>, string> = {
  vite: 'dist',
  webpack: 'dist',
  esbuild: 'dist',
  react18: 'dist',
  astro: 'dist',
  static: '.',
};

/** The tools choose their own mode (vitest's NODE_ENV=test would make a build a development one); no telemetry leaves the machine. */
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_ENV' && !k.startsWith('VITEST'))),
  NEXT_TELEMETRY_DISABLED: '1',
  ASTRO_TELEMETRY_DISABLED: '1',
};
const exec = promisify(execFile);
const run = async (cmd: string, args: string[], cwd: string): Promise<string> => {
  const { stdout, stderr } = await exec(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  return stdout + stderr;
};

export interface Packed {
  tarball: string;
  /** The tarball's bytes, as npm reports them. */
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

export async function pack(into: string): Promise<Packed> {
  const out = await run('npm', ['pack', '--json', '--pack-destination', into], ROOT);
  const [p] = JSON.parse(out.slice(out.indexOf('\n[') + 1, out.lastIndexOf(']') + 1)) as (Omit<Packed, 'tarball'> & {
    filename: string;
  })[]; // after the build's own output
  return { tarball: join(into, p!.filename), size: p!.size, unpackedSize: p!.unpackedSize, files: p!.files };
}

/**
 * A fresh site of `kind` under `work`, with the tarball installed. The hand-written page has no
 * package manager: it takes the folder out of the tarball, as a Hugo or Jekyll site would.
 */
export async function installSite(kind: SiteKind, work: string, tarball: string): Promise<string> {
  const site = join(work, `volume-site-${kind}`);
  cpSync(join(ROOT, 'test/sites/apps', kind), site, { recursive: true });
  if (kind === 'static') {
    await run('tar', ['-xzf', tarball, '-C', site, `package/dist-lib/${FOLDER_NAME}`], site);
    renameSync(join(site, 'package/dist-lib', FOLDER_NAME), join(site, 'plate'));
    rmSync(join(site, 'package'), { recursive: true });
    return site;
  }
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], site);
  return site;
}

/** The site's own build: the folder to serve (absent for Next.js), and what the tools printed. */
export async function buildSite(kind: SiteKind, site: string): Promise<{ dir: string | null; log: string }> {
  const log = kind === 'static' ? '' : await run('npm', ['run', 'build', '--silent'], site);
  return { dir: kind === 'next' ? null : join(site, BUILT[kind]), log };
}

/** A free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise((ok) => server.close(ok));
  return port;
}

export interface Running {
  /** The URL of its front page. */
  url: string;
  /** Everything it printed. */
  log: string[];
  stop(): Promise<void>;
}

/**
 * The site's dev server (or, with `next start`, Next.js's production server), on a free port, once
 * it says it is ready. Next.js's dev server takes its asset requests from `localhost` only.
 */
export async function startServer(kind: DevKind | 'next-start', site: string, timeoutMs = 120_000): Promise<Running> {
  const port = await freePort();
  const servers: Record<DevKind | 'next-start', [string, string[], string, RegExp]> = {
    vite: ['vite', ['--host', '127.0.0.1', '--port', String(port), '--strictPort'], '127.0.0.1', /ready in/i],
    astro: [
      'astro',
      ['dev', '--host', '127.0.0.1', '--port', String(port)],
      '127.0.0.1',
      /ready in|watching for file changes/i,
    ],
    next: ['next', ['dev', '-p', String(port)], 'localhost', /ready in/i],
    'next-start': ['next', ['start', '-p', String(port)], 'localhost', /ready in/i],
  };
  const [cmd, args, host, ready] = servers[kind];
  const child: ChildProcess = spawn(join(site, 'node_modules/.bin', cmd), args, {
    cwd: site,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const log: string[] = [];
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`${kind}: not ready after ${timeoutMs / 1000} s:\n${log.join('')}`)),
      timeoutMs,
    );
    const hear = (b: Buffer) => {
      log.push(b.toString());
      if (ready.test(log.join(''))) {
        clearTimeout(timer);
        ok();
      }
    };
    child.stdout!.on('data', hear);
    child.stderr!.on('data', hear);
    child.on('exit', (code) => fail(new Error(`${kind}: exited with ${code}:\n${log.join('')}`)));
  });
  return {
    url: `http://${host}:${port}/`,
    log,
    stop: async () => {
      if (child.exitCode !== null) return;
      const gone = new Promise((ok) => child.on('exit', ok));
      process.kill(-child.pid!, 'SIGTERM'); // its own process group: the server and what it spawned
      await gone;
    },
  };
}

/**
 * The standalone page's production build (`npm run build`'s output), the budgets' yardstick: built
 * in a child process, since a Vite build inside vitest (NODE_ENV=test) would be a development one.
 */
export async function buildStandalone(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'plate-standalone-'));
  mkdirSync(dir, { recursive: true });
  await run(
    join(ROOT, 'node_modules/.bin/vite'),
    ['build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'],
    ROOT,
  );
  return dir;
}

/** Each site's page with a plate that trains two steps on its own (autorun), and what holds the plate. */
export const PAGES: Record<SiteKind, { page: string; plate: string }> = {
  vite: { page: 'index.html', plate: '.mtrl-plate' },
  webpack: { page: 'index.html', plate: 'plate-multi-turn-rl' },
  esbuild: { page: 'index.html', plate: '.mtrl-plate' },
  react18: { page: 'index.html', plate: '.mtrl-plate' },
  astro: { page: '', plate: '.mtrl-plate' },
  next: { page: '', plate: '.mtrl-plate' },
  static: { page: 'index.html', plate: 'plate-multi-turn-rl' },
};

/**
 * A built site, served: a folder from a sub-path (Astro's pages name their assets from the host's
 * root, so Astro's from the root), Next.js by `next start`.
 */
export async function serveBuilt(kind: SiteKind, site: string, dir: string | null): Promise<Running> {
  if (kind === 'next' || dir === null) return startServer('next-start', site);
  const { url, server } = await serve(dir, {}, kind === 'astro' ? '/' : undefined);
  return { url, log: [], stop: () => new Promise((ok) => server.close(() => ok())) };
}

/** The version of each tool the site installed, by package name. */
export function versions(kind: SiteKind, site: string): Record<string, string> {
  const tools: Record<SiteKind, string[]> = {
    vite: ['vite', 'react'],
    webpack: ['webpack', 'react'],
    esbuild: ['esbuild', 'react'],
    react18: ['esbuild', 'react', 'react-dom'],
    astro: ['astro', '@astrojs/react', 'vite', 'react'],
    next: ['next', 'react'],
    static: [],
  };
  return Object.fromEntries(
    tools[kind].map((t) => [
      t,
      (JSON.parse(readFileSync(join(site, 'node_modules', t, 'package.json'), 'utf8')) as { version: string }).version,
    ]),
  );
}
