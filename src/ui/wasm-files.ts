/**
 * tfjs's WebAssembly binary, imported as a URL so that this page's bundler emits it; the worker
 * receives the URL in its init message.
 *
 * Only the SIMD build is shipped: every current browser runs WebAssembly SIMD, the plain build
 * would add 117 KB to the package (gzipped; its budget is 1 MB, of which the two checkpoints take
 * 358 KB), and the worker skips WASM with a reason where SIMD is missing (src/worker/backend-race.ts).
 * setWasmPaths wants all three names (assets.ts's wasmFiles); the worker turns threads off, so the
 * threaded one is never fetched either.
 */
import simd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url&no-inline';

export const WASM_SIMD: string = simd;
