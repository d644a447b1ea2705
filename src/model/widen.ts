/**
 * A model with a longer context than the one it was trained at: the same weights, its position
 * table grown by new rows drawn as a fresh model's are (N(0, 0.02), from the seed given). The
 * rows it had keep their values, so every transcript that fitted before gets the same logits.
 */
import * as tf from '@tensorflow/tfjs';
import { CharModel } from './gpt';

/** Position rows' init std, as gpt.ts's initParams draws them. */
const POSITION_STD = 0.02;

/**
 * Returns `model` itself when its context is already `context`; else a model of that context
 * that takes over `model`'s variables (the old position table is disposed: use only the result).
 */
export function widenContext(model: CharModel, context: number, seed: number): CharModel {
  const old = model.config.context;
  if (context === old) return model;
  if (!Number.isInteger(context) || context < old)
    throw new Error(`widenContext: a context of ${context} cannot widen one of ${old}`);
  const wpe = model.params['wpe']!;
  const grown = tf.tidy(() =>
    tf.concat([wpe, tf.randomNormal([context - old, model.config.dModel], 0, POSITION_STD, 'float32', seed)]),
  ); // [context, D]
  const params = { ...model.params, wpe: tf.variable(grown, true) };
  grown.dispose();
  wpe.dispose();
  return new CharModel({ ...model.config, context }, params);
}
