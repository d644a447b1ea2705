/**
 * The engine's condition, measured where the training runs: whether there is WebAssembly (and
 * SIMD), and — where plain JavaScript does the training — how fast JavaScript runs against an
 * engine with its JIT. Some readers browse with the JIT and WebAssembly switched off (Safari's
 * Lockdown Mode, Tor Browser's safer levels, Edge's strict security, Chrome with its optimizer
 * off for a site); their browser says nothing about it, and the user agent does not tell, so
 * the probe times it.
 *
 * The probe times a float loop against JSON.parse, which runs as the engine's own compiled code
 * with or without a JIT, so the machine's speed cancels out. Measured in a worker (2-core AMD
 * EPYC): loop ÷ parse 0.17–0.29 in Chromium 150, 0.18–0.22 in Firefox ESR 140, 0.3–0.8 in Node 20;
 * without the JIT 11–22 (Chromium --jitless), 7–17 (Firefox, ion, baselinejit and blinterp off),
 * ~10 (node --jitless). ~40 ms on an engine with its JIT.
 */
import type { EngineReport } from '../protocol/backends';

/** Loop ÷ parse on an engine with its JIT (the middle of the figures above): a slowdown of 1. */
const WITH_JIT = 0.2;

/** WebAssembly as this engine has it: none (switched off, or never there), without SIMD, or with it. */
export function webAssemblyHere(): EngineReport['webAssembly'] {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.validate !== 'function') return 'none';
  try {
    // The module tfjs's WASM backend validates for its SIMD flag (WASM_HAS_SIMD_SUPPORT).
    const simd = new Uint8Array([
      0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 9, 1, 7, 0, 65, 0, 253, 15, 26, 11,
    ]);
    return WebAssembly.validate(simd) ? 'simd' : 'no-simd';
  } catch {
    return 'no-simd';
  }
}

/**
 * How many times slower than with a JIT this engine runs a float loop, timed against its own
 * JSON.parse (≈1 with a JIT; tens without). Windows of at least two ticks of a coarse clock (1 ms
 * in Firefox, 100 ms in Tor Browser), the fastest of three each, after one to warm up.
 */
export function jsSlowdown(now: () => number = () => performance.now()): number {
  const tick = clockTick(now);
  const windowMs = Math.max(4, 2 * tick);
  const data = new Float64Array(1024).map((_, i) => ((i * 7919) % 1000) / 7);
  const text = JSON.stringify(Array.from(data.subarray(0, 100), (x) => Math.round(x * 1000) / 1000));
  let sink = 0;
  const loop = () => {
    let s = 0;
    for (let i = 0; i < data.length; i++) s += data[i]! * 1.0001;
    sink += s;
  };
  const parse = () => {
    sink += (JSON.parse(text) as number[]).length;
  };
  const perCall = (f: () => void): number => {
    const start = nextTick(now);
    let n = 0;
    let t: number;
    do {
      f();
      n++;
    } while ((t = now()) - start < windowMs);
    return (t - start) / n;
  };
  perCall(loop);
  perCall(parse);
  let msLoop = Infinity;
  let msParse = Infinity;
  for (let k = 0; k < 3; k++) {
    msLoop = Math.min(msLoop, perCall(loop));
    msParse = Math.min(msParse, perCall(parse));
  }
  if (sink === 0) console.warn('training worker: the engine probe computed nothing'); // keeps the loops' work
  return msLoop / msParse / WITH_JIT;
}

/** The clock's next tick, waited for. */
function nextTick(now: () => number): number {
  const t0 = now();
  let t: number;
  while ((t = now()) === t0);
  return t;
}

/** How far the clock moves at a time. */
function clockTick(now: () => number): number {
  const a = nextTick(now);
  return nextTick(now) - a;
}
