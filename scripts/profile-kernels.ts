// What a small kernel costs on WASM in Node and in a bare worker in Chromium and Firefox, with no
// page and no training loop around it (scripts/kernel-costs/costs.ts says what is timed). Tells the
// engine's own share of the browser–Node gap from the page's (which scripts/profile-main.ts and
// scripts/timeline-from-load.ts measure). Each line: the median of rounds 2–4 (round 1 warms up).
//   npx tsx scripts/profile-kernels.ts
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { useBackend } from './backend';
import { launch } from './browser/chromium';
import { launchFirefox } from './browser/firefox';
import { removeSite, serve } from './browser/site';
import { median } from './bench-stats';
import { kernelCosts, type KernelCosts } from './kernel-costs/costs';

const ROOT = resolve(import.meta.dirname, '..');

/** Each measurement's median over rounds 2–4 (round 1 warms up). */
function medianOf(rounds: KernelCosts[]): KernelCosts {
  const warm = rounds.slice(1);
  const keys = Object.keys(warm[0]!) as (keyof KernelCosts)[];
  return Object.fromEntries(keys.map((k) => [k, median(warm.map((r) => r[k]))])) as unknown as KernelCosts;
}

function line(engine: string, m: KernelCosts, node?: KernelCosts): string {
  const vs = (k: keyof KernelCosts) => (node ? ` (${(m[k] / node[k]).toFixed(2)}×)` : '');
  return `${engine.padEnd(9)} Add ${m.addEngineUs.toFixed(1)} µs${vs('addEngineUs')}, its kernel alone ${m.addKernelUs.toFixed(1)} µs${vs('addKernelUs')}; layer norm ${m.layerNormUs.toFixed(0)} µs${vs('layerNormUs')}; a decoding position ${m.positionMs.toFixed(2)} ms${vs('positionMs')}; matmul ${m.matmulGflops.toFixed(1)} GFLOP/s${vs('matmulGflops')}`;
}

await useBackend('wasm');
const node = medianOf(kernelCosts());
console.log(line('node', node));
const dir = mkdtempSync(join(tmpdir(), 'kernel-costs-'));
await build({ configFile: join(ROOT, 'vite.config.ts'), root: join(ROOT, 'scripts/kernel-costs'), logLevel: 'error', build: { outDir: dir, emptyOutDir: true } });
const site = await serve(dir);
type Answer = { costs?: KernelCosts[]; error?: string };
try {
  const chromium = await launch();
  try {
    const page = await chromium.newPage();
    await page.goto(`${site.url}index.html`);
    const answer = (await (await page.waitForFunction(() => (window as unknown as { result?: unknown }).result, undefined, { timeout: 300_000 })).jsonValue()) as Answer;
    console.log(answer.costs ? line('chromium', medianOf(answer.costs), node) : `chromium  ${answer.error}`);
  } finally {
    await chromium.close();
  }
  const firefox = await launchFirefox();
  try {
    const page = await firefox.newPage();
    await page.goto(`${site.url}index.html`);
    const answer = (await (await page.waitForFunction('window.result', { timeout: 300_000, polling: 200 })).jsonValue()) as Answer;
    console.log(answer.costs ? line('firefox', medianOf(answer.costs), node) : `firefox   ${answer.error}`);
  } finally {
    await firefox.close();
  }
} finally {
  site.server.close();
  removeSite(dir);
}
