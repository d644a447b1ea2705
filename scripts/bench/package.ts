// The package's budgets as figures (`npm run bench -- package`):
// the tarball's size, and what a first visit downloads until a 2-step run finishes — the standalone
// page, a Vite app and a webpack 5 app built from the tarball (test/e2e/consumers/), each gzipped,
// JavaScript (page and worker) and everything. test/e2e/package.e2e.test.ts checks the same budgets.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from '../lib/browser/chromium';
import { buildApp, buildStandalone, installApp, pack } from '../lib/browser/consumers';
import { measuredSite, statusWord, type MarkedBackend } from '../lib/browser/first-visit';
import { removeSite } from '../lib/browser/site';

interface FirstVisitBench {
  jsGzKB: number;
  totalGzKB: number;
  files: number;
  /** Backends whose code was downloaded. */
  backends: MarkedBackend[];
}

export interface PackageBench {
  tarballBytes: number;
  unpackedBytes: number;
  firstVisit: Record<'standalone' | 'vite' | 'webpack', FirstVisitBench>;
  seconds: Record<string, number>;
}

const SITES = [
  { name: 'standalone', page: 'index.html?steps=2&autorun=1', plate: '.mtrl-plate' },
  { name: 'vite', page: 'index.html', plate: '.mtrl-plate' },
  { name: 'webpack', page: 'index.html', plate: 'plate-multi-turn-rl' },
] as const;

export async function benchPackage(): Promise<PackageBench> {
  const work = mkdtempSync(join(tmpdir(), 'plate-bench-package-'));
  const seconds: Record<string, number> = {};
  const timed = <T>(name: string, f: () => T): T => {
    const t0 = performance.now();
    const out = f();
    seconds[name] = (performance.now() - t0) / 1000;
    return out;
  };
  const browser = await launch();
  const dirs: string[] = [];
  try {
    const packed = timed('pack', () => pack(work));
    const dir = {
      standalone: timed('standalone build', buildStandalone),
      vite: timed('vite app', () => buildApp('vite', installApp('vite', work, packed.tarball)).dir),
      webpack: timed('webpack app', () => buildApp('webpack', installApp('webpack', work, packed.tarball)).dir),
    };
    dirs.push(dir.standalone);
    const firstVisit = {} as PackageBench['firstVisit'];
    for (const s of SITES) {
      const site = await measuredSite(dir[s.name]);
      const v = await site.visit(browser, s.page, (p) => statusWord(p, 'Finished', s.plate));
      if (v.errors.length || v.foreign.length) throw new Error(`${s.name}: ${[...v.errors, ...v.foreign].join('; ')}`);
      firstVisit[s.name] = { jsGzKB: v.jsGz / 1024, totalGzKB: v.totalGz / 1024, files: v.files.length, backends: v.backends };
      await v.page.context().close();
      await site.close();
    }
    return { tarballBytes: packed.size, unpackedBytes: packed.unpackedSize, firstVisit, seconds };
  } finally {
    await browser.close();
    removeSite(work);
    dirs.forEach(removeSite);
  }
}

export function formatPackageBench(b: PackageBench): string[] {
  const base = b.firstVisit.standalone.jsGzKB;
  return [
    `package: tarball ${b.tarballBytes} B (${(b.tarballBytes / 1e6).toFixed(3)} MB; budget 1 MB), unpacked ${(b.unpackedBytes / 1e6).toFixed(2)} MB`,
    'first visit until a 2-step run finishes, gzipped: JavaScript (page and worker) | everything | files | backends fetched',
    ...Object.entries(b.firstVisit).map(
      ([k, v]) => `  ${k.padEnd(10)} ${v.jsGzKB.toFixed(1).padStart(6)} KB (${((100 * v.jsGzKB) / base).toFixed(0)}%) | ${v.totalGzKB.toFixed(1).padStart(6)} KB | ${v.files} | ${v.backends.join(', ')}`,
    ),
    `  (seconds: ${Object.entries(b.seconds).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')})`,
  ];
}
