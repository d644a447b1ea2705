/**
 * What `@tensorflow/tfjs` means in the page's and the library's builds (vite.config.ts aliases
 * it here): the core ops, every gradient, the chained-op methods (`t.reshape(…)`) and the plain-
 * JavaScript CPU backend — not the umbrella package, whose layers, converter, data and core-js
 * nothing here uses. The worker loads the WASM, WebGL and WebGPU backends itself when it picks
 * one (worker/backend.ts). Node keeps the umbrella: its CommonJS build is the one that carries
 * the gradients there, and the ops and kernels are the same either way (a browser test checks
 * that the worker and the Node workshop give the same numbers).
 */
// Core's entry first: it registers the environment's flags, which the gradients and the CPU
// backend read as they register. The built page worked with the gradients first; Vite's dev
// server evaluates its pre-bundled entries in this order, and there the worker died at start-up
// ("Cannot evaluate flag 'DEBUG'"; test/e2e/dev-server.e2e.test.ts).
import '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import '@tensorflow/tfjs-core/dist/public/chained_ops/register_all_chained_ops';
import '@tensorflow/tfjs-backend-cpu';

export * from '@tensorflow/tfjs-core';
