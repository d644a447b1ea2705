// The bare worker: tfjs's WASM backend set up as the training worker sets it up (SIMD, one
// thread, the page's own .wasm), then the measurements, posted back.
import * as tf from '@tensorflow/tfjs';
import * as wasm from '@tensorflow/tfjs-backend-wasm';
import simd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url&no-inline';
import { kernelCosts } from './costs';

tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
const url = new URL(simd, self.location.href).href;
wasm.setWasmPaths({ 'tfjs-backend-wasm.wasm': url, 'tfjs-backend-wasm-simd.wasm': url, 'tfjs-backend-wasm-threaded-simd.wasm': url });
try {
  if (!(await tf.setBackend('wasm'))) throw new Error('the wasm backend did not start');
  await tf.ready();
  postMessage({ costs: kernelCosts() });
} catch (e) {
  postMessage({ error: String(e) });
}
