/**
 * The model's weights by name and shape: what the GPT (gpt.ts), its fused kernels (fused/) and
 * checkpoints (checkpoint.ts) agree on. A module of its own so that none of them imports another
 * for it.
 */
import type * as tf from '@tensorflow/tfjs';
import type { ModelConfig } from '../config';

export type Params = Record<string, tf.Variable>;
type ParamShapes = Record<string, number[]>;

export function paramShapes(c: ModelConfig): ParamShapes {
  const d = c.dModel;
  const shapes: ParamShapes = { wte: [c.vocabSize, d], wpe: [c.context, d] };
  for (let l = 0; l < c.layers; l++) {
    Object.assign(shapes, {
      [`h${l}.ln1.g`]: [d],
      [`h${l}.ln1.b`]: [d],
      [`h${l}.attn.qkv.w`]: [d, 3 * d],
      [`h${l}.attn.qkv.b`]: [3 * d],
      [`h${l}.attn.proj.w`]: [d, d],
      [`h${l}.attn.proj.b`]: [d],
      [`h${l}.ln2.g`]: [d],
      [`h${l}.ln2.b`]: [d],
      [`h${l}.mlp.fc.w`]: [d, 4 * d],
      [`h${l}.mlp.fc.b`]: [4 * d],
      [`h${l}.mlp.proj.w`]: [4 * d, d],
      [`h${l}.mlp.proj.b`]: [d],
    });
  }
  Object.assign(shapes, { 'lnf.g': [d], 'lnf.b': [d], 'head.w': [d, c.vocabSize], 'head.b': [c.vocabSize] });
  return shapes;
}

export const countParams = (c: ModelConfig): number =>
  Object.values(paramShapes(c)).reduce((n, s) => n + s.reduce((a, b) => a * b, 1), 0);
