// Where the Chromium worker's time goes between steps, for a run from random weights: every
// record's arrival on the page against its own timing (the harness's plateArrivals), summed per
// stage: "gaps" is the time between arrivals that no step's own timing covers (posting, yielding).
//   npx tsx scripts/profile-arrivals.ts
import { launch, openHarness } from './browser/chromium';
import { buildSite, removeSite, serve } from './browser/site';
const dir = await buildSite();
const site = await serve(dir);
const browser = await launch();
const h = await openHarness(browser, site.url, '?backend=wasm');
await h.until((s) => s.status === 'ready', 120_000);
const t0 = await h.page.evaluate(() => performance.now());
await h.start({ start: 'scratch', steps: 40 });
await h.until((s) => s.status === 'done', 600_000);
const arr = await h.page.evaluate(() => window.plateArrivals);
const byStage: Record<string, { n: number; own: number; gaps: number; wall: number; first: number }> = {};
let prev = t0;
for (const [stage, step, t, ms] of arr) {
  const b = (byStage[stage] ??= { n: 0, own: 0, gaps: 0, wall: 0, first: t - t0 });
  b.n++; b.own += ms; b.wall += t - prev; b.gaps += t - prev - ms; prev = t;
  if (step <= 1 || step % 50 === 0) console.log(stage, step, (t - t0).toFixed(0), ms.toFixed(0));
}
console.log(JSON.stringify(byStage, (_, v) => (typeof v === 'number' ? Math.round(v) : v), 1));
await browser.close(); site.server.close(); removeSite(dir);
