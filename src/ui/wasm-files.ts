/**
 * tfjs's WebAssembly binary, imported as a URL so that this page's bundler (or the library
 * consumer's) emits it; the worker receives the URLs in its init message.
 */
import simd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url&no-inline';
import type { WasmFiles } from '../protocol/messages';
import { absolute } from './absolute';

/**
 * Only the SIMD build is shipped: every current browser runs WebAssembly SIMD, the plain build
 * would add 117 KB to the package (gzipped; its budget is 1 MB, of which the two checkpoints take
 * 774 KB), and the worker skips WASM with a reason where SIMD is missing (src/worker/backend-race.ts).
 * setWasmPaths wants all three names; the worker turns threads off, so the threaded one is never
 * fetched either.
 */
export const WASM: WasmFiles = {
  'tfjs-backend-wasm.wasm': absolute(simd),
  'tfjs-backend-wasm-simd.wasm': absolute(simd),
  'tfjs-backend-wasm-threaded-simd.wasm': absolute(simd),
};
