// Test helpers: the WASM backend (as the scripts use), a tiny model config, a scripted policy.
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import type { ModelConfig } from '../src/config';
import type { KvCache } from '../src/model/gpt';
import { VOCAB } from '../src/model/vocab';
import type { Policy } from '../src/rl/rollout';

export async function useWasm(): Promise<void> {
  if (tf.getBackend() !== 'wasm') await tf.setBackend('wasm');
  await tf.ready();
}

export const TINY: ModelConfig = { vocabSize: VOCAB.length, context: 32, layers: 1, dModel: 16, heads: 2, dropout: 0 };

/**
 * A policy that writes what `script(textSoFar)` says, with near-certain probability: for testing
 * rollouts without a trained model. It remembers each row's text itself (the cache is unused).
 */
export function scriptedPolicy(script: (row: number, text: string) => string, context = 32): Policy {
  let texts: string[] = [];
  const V = VOCAB.length;
  return {
    config: { ...TINY, context },
    forward(tokens: tf.Tensor2D, opts: { start?: number } = {}) {
      const [B, T] = tokens.shape;
      const ids = tokens.arraySync();
      if ((opts.start ?? 0) === 0) texts = Array<string>(B).fill('');
      texts = texts.map((t, r) => t + ids[r]!.map((id) => VOCAB[id]!).join(''));
      const logits = new Float32Array(B * T * V).fill(-30);
      texts.forEach((t, r) => {
        const next = script(r, t);
        logits[(r * T + T - 1) * V + VOCAB.indexOf(next)] = 30;
      });
      const cache: KvCache = { kind: 'layers', k: [], v: [] };
      return { logits: tf.tensor3d(logits, [B, T, V]), cache };
    },
  };
}
