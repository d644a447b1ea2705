// AssemblyScript: the arithmetic of model/logprobs.ts's targetLogProbs (tfjs's logSoftmax, then
// the target's entry as Σ logp · one-hot) and of its gradient, in the tfjs kernels' order. exp and
// log are not here: the caller runs tfjs's own (the C library's) on the same memory.
// Rows of V logits; targets int32, one per row.

/** out = x / t, n floats (the temperature's division, as tf.div rounds it). */
export function divide(x: usize, out: usize, n: i32, t: f32): void {
  let i = 0;
  const vt = f32x4.splat(t);
  for (; i + 4 <= n; i += 4) v128.store(out + ((<usize>i) << 2), f32x4.div(v128.load(x + ((<usize>i) << 2)), vt));
  for (; i < n; i++) store<f32>(out + ((<usize>i) << 2), load<f32>(x + ((<usize>i) << 2)) / t);
}

/** shifted = x − max of its row (the max as tfjs's Max takes it: the first entry, then any larger one). */
export function shiftByMax(x: usize, shifted: usize, rows: i32, V: i32): void {
  for (let r = 0; r < rows; r++) {
    const row = x + ((<usize>(r * V)) << 2);
    let m = load<f32>(row);
    for (let v = 1; v < V; v++) {
      const e = load<f32>(row + ((<usize>v) << 2));
      if (e > m) m = e;
    }
    const out = shifted + ((<usize>(r * V)) << 2);
    for (let v = 0; v < V; v++) store<f32>(out + ((<usize>v) << 2), load<f32>(row + ((<usize>v) << 2)) - m);
  }
}

/** sums [rows] = Σ of each row of e, in order. */
export function rowSums(e: usize, sums: usize, rows: i32, V: i32): void {
  for (let r = 0; r < rows; r++) {
    const row = e + ((<usize>(r * V)) << 2);
    let s: f32 = 0;
    for (let v = 0; v < V; v++) s += load<f32>(row + ((<usize>v) << 2));
    store<f32>(sums + ((<usize>r) << 2), s);
  }
}

/**
 * value = shifted − logSum (per row: logSoftmax), kept in place of shifted; logp [rows] =
 * Σ_v value · one-hot(target), in order (the one-hot's zeros included, as tf.sum adds them).
 */
export function pickTargets(shifted: usize, logSums: usize, targets: usize, logp: usize, rows: i32, V: i32): void {
  for (let r = 0; r < rows; r++) {
    const row = shifted + ((<usize>(r * V)) << 2);
    const l = load<f32>(logSums + ((<usize>r) << 2));
    const target = load<i32>(targets + ((<usize>r) << 2));
    let s: f32 = 0;
    for (let v = 0; v < V; v++) {
      const p = row + ((<usize>v) << 2);
      const value = load<f32>(p) - l;
      store<f32>(p, value);
      s += value * (v == target ? <f32>1 : <f32>0);
    }
    store<f32>(logp + ((<usize>r) << 2), s);
  }
}

/**
 * The gradient from dlogp [rows]: g = dlogp · one-hot, then logSoftmax's dy − Σ dy · softmax
 * (softmax = exp(value), given), then ÷ t when t ≠ 1: into out [rows, V].
 */
export function targetsBackward(dlogp: usize, softmax: usize, targets: usize, out: usize, rows: i32, V: i32, t: f32): void {
  for (let r = 0; r < rows; r++) {
    const dy = load<f32>(dlogp + ((<usize>r) << 2));
    const target = load<i32>(targets + ((<usize>r) << 2));
    let s: f32 = 0;
    for (let v = 0; v < V; v++) s += dy * (v == target ? <f32>1 : <f32>0);
    const sm = softmax + ((<usize>(r * V)) << 2);
    const o = out + ((<usize>(r * V)) << 2);
    for (let v = 0; v < V; v++) {
      let d = dy * (v == target ? <f32>1 : <f32>0) - s * load<f32>(sm + ((<usize>v) << 2));
      if (t != 1) d = d / t;
      store<f32>(o + ((<usize>v) << 2), d);
    }
  }
}
