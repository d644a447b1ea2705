// What the plate page's main thread does in its long tasks during a run from random weights: a
// DevTools timeline trace (playwright's tracing on Debian's Chromium), each task over 40 ms with
// the events inside it summed by name (script, style, layout, paint, commit) and the JS functions
// with the most self time in it.
// --hide SELECTORS hides parts of the page (display: none), to see which part the long tasks are for;
// --vh the viewport's height (default 4000, the whole page on screen, as the bench has it).
//   npx tsx scripts/profile-main.ts [--steps 40] [--over 40] [--hide '.episodes'] [--vh 900]
import { parseArgs } from 'node:util';
import { intOption } from './args';
import { launch } from './browser/chromium';
import { buildPage } from './browser/page-site';
import { removeSite, serve } from './browser/site';

interface TraceEvent { name: string; ph: string; ts: number; dur?: number; tdur?: number; tid: number; pid: number; args?: { data?: { functionName?: string; url?: string; frame?: string } } }

const { values: a } = parseArgs({ options: { steps: { type: 'string' }, over: { type: 'string' }, query: { type: 'string' }, hide: { type: 'string' }, vh: { type: 'string' } } });
const steps = intOption('steps', a.steps, 40, 1);
const over = intOption('over', a.over, 40, 1);
const dir = await buildPage({ minify: false });
const site = await serve(dir);
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: intOption('vh', a.vh, 4000, 100) } });
  if (a.hide) await page.addInitScript(`document.addEventListener('DOMContentLoaded', () => { const s = document.createElement('style'); s.textContent = ${JSON.stringify(a.hide)} + ' { display: none !important; }'; document.head.append(s); });`);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'disabled-by-default-devtools.timeline.stack'] });
  const t0 = Date.now();
  await page.goto(`${site.url}index.html?backend=wasm&autorun=1&steps=${steps}&start=scratch${a.query ?? ''}`);
  // The page pauses training while the figure is out of sight: bring it into a short viewport.
  await page.evaluate(() => document.querySelector('.plate-figure')?.scrollIntoView());
  await page.waitForFunction(() => document.querySelector('.status-word')?.textContent === 'Finished', undefined, { timeout: 600_000, polling: 500 });
  console.log(`finished in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const buf = await browser.stopTracing();
  const events = (JSON.parse(buf.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  // The renderer's main thread: the one that runs the page's tasks and its frames.
  const main = events.find((e) => e.name === 'TracingStartedInBrowser' || e.name === 'thread_name' && (e.args as { name?: string })?.name === 'CrRendererMain');
  const tid = events.find((e) => e.name === 'thread_name' && (e.args as { name?: string })?.name === 'CrRendererMain')?.tid ?? main?.tid;
  const onMain = events.filter((e) => e.tid === tid && e.ph === 'X');
  const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > over * 1000).sort((x, y) => (y.dur ?? 0) - (x.dur ?? 0));
  const all = onMain.filter((e) => e.name === 'RunTask');
  console.log(`main-thread tasks: ${all.length}; over ${over} ms: ${tasks.length}; longest ${(Math.max(0, ...all.map((t) => t.dur ?? 0)) / 1000).toFixed(0)} ms`);
  // Totals by event over the whole run, the main thread's top-level rendering work.
  const totals = new Map<string, number>();
  for (const e of onMain) if (['Layout', 'Paint', 'UpdateLayoutTree', 'Layerize', 'PrePaint', 'Commit', 'FunctionCall'].includes(e.name)) totals.set(e.name, (totals.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
  console.log(`whole run, ms: ${[...totals].map(([n, ms]) => `${n} ${ms.toFixed(0)}`).join('; ')}`);
  for (const t of tasks.slice(0, 8)) {
    const inside = onMain.filter((e) => e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + (t.dur ?? 0));
    const byName = new Map<string, number>();
    for (const e of inside) {
      const key = e.name === 'FunctionCall' || e.name === 'EventDispatch' || e.name === 'TimerFire' || e.name === 'FireAnimationFrame' ? `${e.name} ${e.args?.data?.functionName ?? ''}` : e.name;
      byName.set(key, (byName.get(key) ?? 0) + (e.dur ?? 0) / 1000);
    }
    const top = [...byName.entries()].sort((x, y) => y[1] - x[1]).slice(0, 12);
    // Layout or style forced by script: where the script asked.
    const forced = inside.filter((e) => (e.name === 'Layout' || e.name === 'UpdateLayoutTree') && (e.args as { beginData?: { stackTrace?: { functionName: string; url: string; lineNumber: number }[] } })?.beginData?.stackTrace);
    for (const e of forced.slice(0, 3)) {
      const st = (e.args as { beginData: { stackTrace: { functionName: string; url: string; lineNumber: number }[] } }).beginData.stackTrace;
      console.log(`  forced ${e.name} ${((e.dur ?? 0) / 1000).toFixed(1)} ms from ${st.slice(0, 5).map((f) => `${f.functionName}@${f.url.split('/').at(-1)}:${f.lineNumber}`).join(' < ')}`);
    }
    console.log(`\ntask ${((t.dur ?? 0) / 1000).toFixed(0)} ms (${((t.tdur ?? NaN) / 1000).toFixed(0)} ms on the CPU) at ${((t.ts - all[0]!.ts) / 1e6).toFixed(1)} s: ${top.map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join('; ')}`);
  }
} finally {
  await browser.close();
  site.server.close();
  removeSite(dir);
}
