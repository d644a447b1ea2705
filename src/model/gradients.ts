/** Gradients of a scalar with respect to variables, freeing everything when the forward throws. */
import * as tf from '@tensorflow/tfjs';

/**
 * tf.variableGrads, except that a throw inside f also frees what the tape had saved for the
 * backward pass so far: tfjs frees those only after a backward pass, so a forward that throws
 * partway (a broken model, a bad batch) would leak them.
 */
export function variableGrads(
  f: () => tf.Scalar,
  variables: tf.Variable[],
): { value: tf.Scalar; grads: tf.NamedTensorMap } {
  try {
    return tf.variableGrads(f, variables);
  } catch (e) {
    const state = tf.engine().state;
    if (state.gradientDepth === 0 && state.activeTape) {
      for (const node of state.activeTape) tf.dispose(node.saved ?? []);
      state.activeTape = [];
    }
    throw e;
  }
}

/** a + b, name by name (gradients summed over a step's parts, model/parts.ts); both are freed. */
export function addGrads(a: tf.NamedTensorMap, b: tf.NamedTensorMap): tf.NamedTensorMap {
  const sum = tf.tidy(() => Object.fromEntries(Object.keys(a).map((k) => [k, tf.add(a[k]!, b[k]!)])));
  tf.dispose([a, b]);
  return sum;
}
