/**
 * Whether the active tfjs backend keeps its tensors in CPU memory (wasm, cpu). There, reading a
 * tensor back is a copy, not a GPU stall (so Adam runs in JavaScript, model/adam.ts), and a
 * depthwise convolution (XNNPACK on WASM) beats a batched matmul (model/attention.ts).
 */
import * as tf from '@tensorflow/tfjs';

const CPU_MEMORY_BACKENDS: ReadonlySet<string> = new Set(['wasm', 'cpu']);

export const onCpuMemoryBackend = (): boolean => CPU_MEMORY_BACKENDS.has(tf.getBackend());
