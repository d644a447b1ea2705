/**
 * tfjs's WebAssembly binaries, imported as URLs so that this page's bundler (or the library
 * consumer's) emits them; the worker receives the URLs in its init message.
 */
import plain from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url&no-inline';
import simd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url&no-inline';
import type { WasmFiles } from '../protocol/messages';

const absolute = (url: string) => new URL(url, import.meta.url).href;

// setWasmPaths wants all three names, but the worker turns threads off (src/worker/backend.ts), so
// the threaded binary is never fetched: its entry points at the SIMD one and no bundle emits it.
export const WASM: WasmFiles = {
  'tfjs-backend-wasm.wasm': absolute(plain),
  'tfjs-backend-wasm-simd.wasm': absolute(simd),
  'tfjs-backend-wasm-threaded-simd.wasm': absolute(simd),
};
