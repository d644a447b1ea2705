// Where "40 steps from page load" goes on the plate page in Chromium: the status line's changes
// with their times (navigation start = 0), and the main thread's task time over the run (CDP
// Performance metrics). VH=900 for a laptop-sized viewport (default 4000: the whole page painted).
//   npx tsx scripts/timeline-from-load.ts
import { launch } from './browser/chromium';
import { buildPage } from './browser/page-site';
import { serve } from './browser/site';
const dir = await buildPage();
const { url, server } = await serve(dir);
const browser = await launch();
for (let i = 0; i < 2; i++) {
  // Two runs, each in a fresh page: the second shows what a warm browser process changes.
  const page = await browser.newPage({ viewport: { width: 1280, height: Number(process.env.VH ?? 4000) } });
  await page.addInitScript(`window.tl = []; let last = ''; setInterval(() => { const t = (document.querySelector('.status-line')?.textContent ?? '').slice(0, 70); if (t !== last) { window.tl.push([Math.round(performance.now()), t]); last = t; } }, 20);`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`${url}index.html?backend=wasm&autorun=${process.env.AUTO ?? 1}&steps=40`);
  await page.evaluate(`document.querySelector('.plate-figure')?.scrollIntoView()`);
  await page.waitForFunction(() => document.querySelector('.status-word')?.textContent === 'Finished', null, { timeout: 120000, polling: 50 });
  const m = (await cdp.send('Performance.getMetrics')).metrics.filter((x: any) => /Duration|Nodes|LayoutCount|RecalcStyleCount/.test(x.name)).map((x: any) => `${x.name}=${Math.round(x.value * (x.name.endsWith('Duration') ? 1000 : 1))}`);
  console.log(m.join(' '));
  const tl = await page.evaluate(() => (window as any).tl as [number, string][]);
  const nav = await page.evaluate(() => JSON.stringify(performance.getEntriesByType('navigation').map((e: any) => ({ dcl: Math.round(e.domContentLoadedEventEnd), load: Math.round(e.loadEventEnd) }))));
  console.log('run', i, nav);
  for (const [t, w] of tl.filter((_, k) => k < 8 || k > tl.length - 3)) console.log(t, w);
  await page.close();
}
await browser.close(); server.close();
