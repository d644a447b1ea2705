// Where the Chromium worker's GRPO step spends the time Node's does not: the V8 sampling profiler
// in both (the DevTools protocol on the worker target; node:inspector in this process) over the
// same run, self time summed by function and by kind (WebAssembly, JavaScript, GC, idle).
//   npx tsx scripts/profile-gap.ts [--steps 40] [--top 25]
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { intOption } from './args';
import { useBackend } from './backend';
import { launch, openHarness } from './browser/chromium';
import { buildSite, removeSite, serve } from './browser/site';
import { runWorkshop } from './run-workshop';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }
interface Profile { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

/** Self time (ms) per function, from a V8 CPU profile. */
function selfTimes(p: Profile): Map<string, number> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const n = byId.get(p.samples[i]!)!;
    const f = n.callFrame;
    // By name alone, so that Node's CommonJS build and the page's bundle meet (the page's is built unminified here).
    const key = f.url.startsWith('wasm://') ? `wasm ${f.functionName}` : f.functionName || `(anonymous) ${f.url.split('/').at(-1)}:${f.lineNumber}`;
    out.set(key, (out.get(key) ?? 0) + (p.timeDeltas[i + 1] ?? 0) / 1000);
  }
  return out;
}

function kinds(t: Map<string, number>): Record<string, number> {
  const k: Record<string, number> = { wasm: 0, gc: 0, idle: 0, program: 0, js: 0 };
  for (const [name, ms] of t) {
    if (name.startsWith('wasm ')) k.wasm! += ms;
    else if (name.startsWith('(garbage collector)')) k.gc! += ms;
    else if (name.startsWith('(idle)')) k.idle! += ms;
    else if (name.startsWith('(program)')) k.program! += ms;
    else k.js! += ms;
  }
  return k;
}

async function workerCdp(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const attached = new Promise<string>((ok) => cdp.on('Target.attachedToTarget', (e) => e.targetInfo.type === 'worker' && ok(e.sessionId)));
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  const sessionId = await attached;
  let id = 0;
  return (method: string, params: object = {}) =>
    new Promise<Record<string, unknown>>((ok) => {
      const mine = ++id;
      cdp.on('Target.receivedMessageFromTarget', (e) => {
        const m = JSON.parse(e.message) as { id?: number; result?: Record<string, unknown> };
        if (e.sessionId === sessionId && m.id === mine) ok(m.result ?? {});
      });
      void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: mine, method, params }) });
    });
}

async function chromiumProfile(steps: number): Promise<Profile> {
  const dir = await buildSite({ minify: false });
  const site = await serve(dir);
  const browser = await launch();
  try {
    const h = await openHarness(browser, site.url, '?backend=wasm');
    await h.until((s) => s.status === 'ready', 120_000);
    const call = await workerCdp(h.page);
    await call('Profiler.enable');
    await call('Profiler.setSamplingInterval', { interval: 200 });
    await call('Profiler.start');
    await h.start({ steps });
    await h.until((s) => s.status === 'done', 600_000);
    return (await call('Profiler.stop')).profile as Profile;
  } finally {
    await browser.close();
    site.server.close();
    removeSite(dir);
  }
}

async function nodeProfile(steps: number): Promise<Profile> {
  await useBackend('wasm');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  await runWorkshop({ start: 'agent', seed: 1, steps });
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  return profile as unknown as Profile;
}

const { values: a } = parseArgs({ options: { steps: { type: 'string' }, top: { type: 'string' } } });
const steps = intOption('steps', a.steps, 40, 1);
const top = intOption('top', a.top, 25, 1);
const node = selfTimes(await nodeProfile(steps));
const chromium = selfTimes(await chromiumProfile(steps));
const fmt = (x: number | undefined) => (x ?? 0).toFixed(0).padStart(7);
console.log(`self time (ms) over a ${steps}-step run, by kind:`);
console.log('  node    ', JSON.stringify(kinds(node), (_, v: unknown) => (typeof v === 'number' ? Math.round(v) : v)));
console.log('  chromium', JSON.stringify(kinds(chromium), (_, v: unknown) => (typeof v === 'number' ? Math.round(v) : v)));
const names = [...new Set([...node.keys(), ...chromium.keys()])];
names.sort((x, y) => (chromium.get(y) ?? 0) - (node.get(y) ?? 0) - ((chromium.get(x) ?? 0) - (node.get(x) ?? 0)));
console.log(`\nthe ${top} functions with the most extra self time in Chromium (node, chromium, extra):`);
for (const n of names.slice(0, top)) console.log(`${fmt(node.get(n))} ${fmt(chromium.get(n))} ${fmt((chromium.get(n) ?? 0) - (node.get(n) ?? 0))}  ${n}`);
const byChromium = [...chromium.entries()].sort((x, y) => y[1] - x[1]).slice(0, top);
console.log(`\nthe ${top} largest self times in Chromium (node, chromium):`);
for (const [n, ms] of byChromium) console.log(`${fmt(node.get(n))} ${fmt(ms)}  ${n}`);
