// Where the plate page's main thread spends its JavaScript while the figure trains: the V8
// sampling profiler over one 40-step run started from the Run button (the figure in view, a
// 1280×900 viewport, VH= to change it), time by function inclusive of what it calls, for React's
// scheduler and commit and the figure's components. "program" is the browser's own native work
// (style, layout, paint), "idle" time the main thread had nothing to do.
//   npx tsx scripts/profile-renders.ts
import { launch } from './browser/chromium';
import { buildPage } from './browser/page-site';
import { removeSite, serve } from './browser/site';

interface ProfileNode { id: number; callFrame: { functionName: string }; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** Milliseconds per function name: self (the sampled function) and inclusive (anywhere on the stack, once per sample). */
function times(p: Profile): { self: Map<string, number>; inclusive: Map<string, number> } {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (id: number) => byId.get(id)!.callFrame.functionName || '(anon)';
  const add = (m: Map<string, number>, k: string, ms: number) => m.set(k, (m.get(k) ?? 0) + ms);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  p.samples.forEach((leaf, i) => {
    const ms = (p.timeDeltas[i + 1] ?? 0) / 1000;
    add(self, name(leaf), ms);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) seen.add(name(id));
    for (const k of seen) add(inclusive, k, ms);
  });
  return { self, inclusive };
}

/** React's own entry points, shown beside the components (capitalised names). */
const REACT = ['performWorkUntilDeadline', 'flushSync', 'commitRoot', 'renderRootSync', 'workLoopSync'];

const dir = await buildPage({ minify: false });
const site = await serve(dir);
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: Number(process.env.VH ?? 900) } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await page.goto(`${site.url}index.html?backend=wasm&steps=40${process.env.Q ?? ''}`);
  await page.waitForFunction(() => document.querySelector('.status-word')?.textContent === 'Ready', undefined, { timeout: 600_000, polling: 100 });
  await page.evaluate(() => document.querySelector('.plate-figure')?.scrollIntoView());
  await cdp.send('Profiler.start');
  const t0 = Date.now();
  await page.evaluate(() => (Array.from(document.querySelectorAll('button')).find((b) => b.textContent?.trim() === 'Run') as HTMLButtonElement).click());
  await page.waitForFunction(() => document.querySelector('.status-word')?.textContent === 'Finished', undefined, { timeout: 600_000, polling: 500 });
  console.log('finished', (Date.now() - t0) / 1000);
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
  const { self, inclusive } = times(profile);
  const ms = (k: string) => (self.get(k) ?? 0).toFixed(0);
  console.log('idle', ms('(idle)'), 'program', ms('(program)'), 'gc', ms('(garbage collector)'));
  const shown = [...inclusive].filter(([k]) => /^[A-Z]/.test(k) || REACT.includes(k)).sort((a, b) => b[1] - a[1]).slice(0, 40);
  console.log(shown.map(([k, v]) => `${v.toFixed(0).padStart(6)} ${k}`).join('\n'));
} finally {
  await browser.close();
  site.server.close();
  removeSite(dir);
}
