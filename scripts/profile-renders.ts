// Where the plate page's main thread spends its JavaScript while the figure trains: the V8
// sampling profiler over one 40-step run started from the Run button (the figure in view, a
// 1280×900 viewport, VH= to change it), time by function inclusive of what it calls, for React's
// scheduler and commit and the figure's components. "program" is the browser's own native work
// (style, layout, paint), "idle" time the main thread had nothing to do.
//   npx tsx scripts/profile-renders.ts
import { launch } from './browser/chromium';
import { buildPage } from './browser/page-site';
import { removeSite, serve } from './browser/site';
const dir = await buildPage({ minify: false });
const site = await serve(dir);
const browser = await launch();
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
const { profile } = await cdp.send('Profiler.stop') as any;
const byId = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map<string, number>(); const self = new Map<string, number>();
const name = (n: any) => `${n.callFrame.functionName || '(anon)'}`;
for (let i = 0; i < profile.samples.length; i++) {
  const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  let id: number | undefined = profile.samples[i];
  const seen = new Set<string>();
  const leaf = byId.get(id!);
  self.set(name(leaf), (self.get(name(leaf)) ?? 0) + dt);
  while (id !== undefined) { const k = name(byId.get(id)); if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + dt); } id = parent.get(id); }
}
console.log('idle', (self.get('(idle)') ?? 0).toFixed(0), 'program', (self.get('(program)') ?? 0).toFixed(0), 'gc', (self.get('(garbage collector)') ?? 0).toFixed(0));
console.log([...incl].filter(([k]) => /^[A-Z]/.test(k) || ['performWorkUntilDeadline', 'flushSync', 'commitRoot', 'renderRootSync', 'workLoopSync'].includes(k)).sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, v]) => v.toFixed(0).padStart(6) + ' ' + k).join('\n'));
await browser.close(); site.server.close(); removeSite(dir);
