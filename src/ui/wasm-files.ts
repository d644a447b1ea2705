/**
 * tfjs's WebAssembly binaries, imported as URLs so that this page's bundler (or the library
 * consumer's) emits them; the worker receives the URLs in its init message.
 */
import plain from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url&no-inline';
import simd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url&no-inline';
import threaded from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url&no-inline';
import type { WasmFiles } from '../protocol/messages';

const absolute = (url: string) => new URL(url, import.meta.url).href;

export const WASM: WasmFiles = {
  'tfjs-backend-wasm.wasm': absolute(plain),
  'tfjs-backend-wasm-simd.wasm': absolute(simd),
  'tfjs-backend-wasm-threaded-simd.wasm': absolute(threaded),
};
