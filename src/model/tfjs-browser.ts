/**
 * What `@tensorflow/tfjs` means in the page's build (vite.config.ts aliases it here): the core ops,
 * every gradient, the chained-op methods (`t.reshape(…)`) and the plain-JavaScript CPU backend —
 * not the umbrella package, whose layers, converter, data and core-js nothing here uses. The
 * worker loads the WASM, WebGL and WebGPU backends itself when it picks one (worker/backend-race.ts).
 * Node keeps the umbrella: its CommonJS build is the one that carries the gradients there, and
 * the ops and kernels are the same either way (a browser test checks that the worker and the Node
 * workshop give the same numbers). The package's worker is built with the same alias (scripts/build/lib-build.ts).
 */
import './tfjs-setup';

export * from '@tensorflow/tfjs-core';
