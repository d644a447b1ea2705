import * as tf from '@tensorflow/tfjs';
import { targetLogProbsFused } from './fused/logprobs';
import { fusedModule } from './fused/module';
import type { CharModel } from './gpt';
import { partsOf, UNITS, type PartDone } from './parts';
import { encode, PAD } from './vocab';

/**
 * Per-position log-probabilities of the given targets.
 * logits: [B, T, V], targets: [B, T] int32 → [B, T].
 */
export function targetLogProbs(logits: tf.Tensor3D, targets: tf.Tensor2D, temperature = 1): tf.Tensor2D {
  if (fusedModule()) return targetLogProbsFused(logits, targets, temperature);
  return tf.tidy(() => {
    const V = logits.shape[2];
    const logp = tf.logSoftmax(temperature === 1 ? logits : tf.div(logits, temperature)); // [B, T, V]
    return tf.sum(tf.mul(logp, tf.oneHot(targets, V)), -1) as tf.Tensor2D; // [B, T]
  });
}

/** Shift a [N, L] token batch into inputs [N, L-1] and next-character targets [N, L-1]. */
export function shiftTokens(tokens: tf.Tensor2D): { inputs: tf.Tensor2D; targets: tf.Tensor2D } {
  const [N, L] = tokens.shape;
  return {
    inputs: tf.slice(tokens, [0, 0], [N, L - 1]),
    targets: tf.slice(tokens, [0, 1], [N, L - 1]),
  };
}

/**
 * For each transcript, the log-probability the model gives each of its characters after the
 * first, at `temperature` (as the policy loss reads them): out[i][j] is character j + 1 of
 * texts[i], so out[i] has texts[i].length − 1 entries. One forward pass (the training path,
 * no dropout) over the distinct transcripts only: a GRPO step's 64 episodes hold ~14–32. In
 * parts of `rowsPerPart` transcripts where given (model/parts.ts), each padded to its own longest.
 */
export async function transcriptLogProbs(
  model: CharModel,
  texts: readonly string[],
  temperature: number,
  parts: { rowsPerPart?: number; onPart?: PartDone } = {},
): Promise<Float32Array[]> {
  const unique = [...new Set(texts)];
  const row = new Map<string, Float32Array>();
  for (const part of partsOf(unique.length, parts.rowsPerPart)) {
    if (part.length === 0) break;
    const these = part.map((i) => unique[i]!);
    const L = Math.max(...these.map((t) => t.length));
    const logp = await logProbsOf(model, these, L, temperature);
    these.forEach((t, i) => row.set(t, logp.slice(i * (L - 1), i * (L - 1) + t.length - 1)));
    await parts.onPart?.(these.length * (L - 1) * UNITS.forward);
  }
  return texts.map((t) => row.get(t)!);
}

/** texts padded to L → their targets' log-probs [U, L-1], read back. */
async function logProbsOf(model: CharModel, texts: readonly string[], L: number, temperature: number) {
  const ids = new Int32Array(texts.length * L);
  texts.forEach((t, i) => ids.set(encode(t.padEnd(L, PAD)), i * L));
  const tokens = tf.tensor2d(ids, [texts.length, L], 'int32'); // [U, L]
  const { inputs, targets } = shiftTokens(tokens); // [U, L-1] each
  let logp: tf.Tensor2D | undefined;
  try {
    logp = tf.tidy(() => targetLogProbs(model.logits(inputs), targets, temperature)); // [U, L-1]
    return await logp.data<'float32'>();
  } finally {
    tf.dispose([tokens, inputs, targets, logp ?? []]);
  }
}
