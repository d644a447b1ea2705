// The package's budgets as figures (`npm run bench -- package`):
// the tarball's size, and per site — the standalone page and a fresh site of each kind from
// test/sites/ (default: all six) — the tools' versions, the install's and the build's seconds, and
// what a first visit downloads until a 2-step run finishes, gzipped: JavaScript (page and worker)
// and everything. `npm run test:sites` checks the same budgets.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from '../../test/browser/chromium';
import { buildSite, buildStandalone, installSite, pack, PAGES, serveBuilt, versions, type SiteKind } from '../../test/browser/consumers';
import { statusWord, visit, type MarkedBackend } from '../../test/browser/first-visit';
import { removeSite, serve, stopServing } from '../../test/browser/site';

interface FirstVisitBench {
  versions: Record<string, string>;
  seconds: { install: number; build: number };
  jsGzKB: number;
  totalGzKB: number;
  files: number;
  /** Backends whose code was downloaded. */
  backends: MarkedBackend[];
}

export interface PackageBench {
  tarballBytes: number;
  unpackedBytes: number;
  packSeconds: number;
  firstVisit: Partial<Record<'standalone' | SiteKind, FirstVisitBench>>;
}

const ALL: SiteKind[] = ['vite', 'webpack', 'esbuild', 'astro', 'next', 'static'];

const seconds = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
  const t0 = performance.now();
  const out = await f();
  return [out, (performance.now() - t0) / 1000];
};

export async function benchPackage(kinds: SiteKind[] = ALL): Promise<PackageBench> {
  const work = mkdtempSync(join(tmpdir(), 'plate-bench-package-'));
  const browser = await launch();
  try {
    const [packed, packSeconds] = await seconds(() => pack(work));
    const firstVisit: PackageBench['firstVisit'] = {};
    const measure = async (url: string, plate: string) => {
      const v = await visit(browser, url, (p) => statusWord(p, 'Finished', plate));
      if (v.errors.length || v.foreign.length) throw new Error(`${url}: ${[...v.errors, ...v.foreign].join('; ')}`);
      await v.page.context().close();
      return { jsGzKB: v.jsGz / 1024, totalGzKB: v.totalGz / 1024, files: v.files.length, backends: v.backends };
    };
    const [page, build] = await seconds(buildStandalone);
    const served = await serve(page);
    firstVisit.standalone = { versions: {}, seconds: { install: 0, build }, ...(await measure(`${served.url}index.html?steps=2&autorun=1`, '.mtrl-plate')) };
    await stopServing({ ...served, dir: page });
    for (const kind of kinds) {
      const [site, install] = await seconds(() => installSite(kind, work, packed.tarball));
      const [{ dir }, built] = await seconds(() => buildSite(kind, site));
      const server = await serveBuilt(kind, site, dir);
      try {
        firstVisit[kind] = { versions: versions(kind, site), seconds: { install, build: built }, ...(await measure(server.url + PAGES[kind].page, PAGES[kind].plate)) };
      } finally {
        await server.stop();
      }
    }
    return { tarballBytes: packed.size, unpackedBytes: packed.unpackedSize, packSeconds, firstVisit };
  } finally {
    await browser.close();
    removeSite(work);
  }
}

export function formatPackageBench(b: PackageBench): string[] {
  const base = b.firstVisit.standalone!.jsGzKB;
  return [
    `package: tarball ${b.tarballBytes} B (${(b.tarballBytes / 1e6).toFixed(3)} MB), unpacked ${(b.unpackedBytes / 1e6).toFixed(2)} MB, packed in ${b.packSeconds.toFixed(1)} s`,
    'first visit until a 2-step run finishes, gzipped: site (versions) | install s | build s | JavaScript (page and worker) | everything | files | backends fetched',
    ...Object.entries(b.firstVisit).map(([k, v]) => {
      const tools = Object.entries(v.versions).map(([t, n]) => `${t} ${n}`).join(', ');
      return `  ${k.padEnd(10)} (${tools || '—'}) | ${v.seconds.install.toFixed(1)} | ${v.seconds.build.toFixed(1)} | ${v.jsGzKB.toFixed(1)} KB (${((100 * v.jsGzKB) / base).toFixed(0)}%) | ${v.totalGzKB.toFixed(1)} KB | ${v.files} | ${v.backends.join(', ')}`;
    }),
  ];
}
