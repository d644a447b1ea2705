/**
 * What the browser builds need registered before the first op: core's environment, every
 * gradient, the chained-op methods (`t.reshape(…)`) and the plain-JavaScript CPU backend.
 * src/model/tfjs-browser.ts imports it, for the page's worker and the package's (scripts/build/lib-build.ts).
 */
// Core's entry first: it registers the environment's flags, which the gradients and the CPU
// backend read as they register. The built page worked with the gradients first; Vite's dev
// server evaluates its pre-bundled entries in this order, and there the worker died at start-up
// ("Cannot evaluate flag 'DEBUG'"; test/e2e/dev-server.e2e.test.ts).
import '@tensorflow/tfjs-core';
// Files by their full names: the library is ES modules, and webpack resolves their imports as
// fully specified (no extension guessed).
import '@tensorflow/tfjs-core/dist/register_all_gradients.js';
import '@tensorflow/tfjs-core/dist/public/chained_ops/register_all_chained_ops.js';
import '@tensorflow/tfjs-backend-cpu';
