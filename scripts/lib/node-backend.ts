// Node backends for the scripts: the WASM backend (SIMD, single thread) or the pure-JS cpu backend.
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';

export type NodeBackend = 'wasm' | 'cpu';

export async function setNodeBackend(name: NodeBackend): Promise<string> {
  if (!(await tf.setBackend(name))) throw new Error(`could not start the ${name} backend`);
  await tf.ready();
  return tf.getBackend();
}
