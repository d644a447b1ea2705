// AssemblyScript: the model's forward arithmetic, compiled to WebAssembly (SIMD) by
// `npm run build:kernels` into ../kernels-wasm.ts. The module imports the tfjs WASM backend's own
// memory, so every pointer here is a byte offset into that heap: tensors are read and written
// where tfjs keeps them, with no copies.
//
// Every sum runs in the order tfjs's WASM kernels run it (XNNPACK's GEMM and depthwise
// convolution, and tfjs's Mean and Sum, all add their terms one by one from +0, first index
// first), each product and sum rounded to float32 as it is made: so these kernels give the
// unfused path's values bit for bit (test/model/fused.test.ts). Sigmoid and softmax are not here:
// XNNPACK computes them with its own approximations, and the caller runs tfjs's own on the
// same memory.
//
// The module must never write memory it is not given: no static data, no allocation, no start
// function (test/model/fused-build.test.ts checks the binary).

// ---- matrix products ---------------------------------------------------------------------------

/**
 * out [M, N] = a [M, K] @ b [K, N] (+ bias [N] when bias ≠ 0), row-major; with accumulate ≠ 0,
 * out += that (the residual add: out + y, as tf.add(x, y) rounds it).
 */
export function matmul(a: usize, b: usize, bias: usize, out: usize, M: i32, K: i32, N: i32, accumulate: i32): void {
  const rowA = (<usize>K) << 2;
  const rowB = (<usize>N) << 2;
  let m = 0;
  for (; m + 4 <= M; m += 4) {
    const a0 = a + <usize>m * rowA;
    const o0 = out + <usize>m * rowB;
    let n = 0;
    for (; n + 8 <= N; n += 8) tile4x8(a0, rowA, b + (<usize>n << 2), rowB, K, bias ? bias + (<usize>n << 2) : 0, o0 + (<usize>n << 2), rowB, accumulate);
    for (; n < N; n++) {
      for (let r = 0; r < 4; r++) scalarDot(a0 + <usize>r * rowA, b + (<usize>n << 2), rowB, K, bias ? bias + (<usize>n << 2) : 0, o0 + <usize>r * rowB + (<usize>n << 2), accumulate);
    }
  }
  for (; m < M; m++) {
    const a0 = a + <usize>m * rowA;
    const o0 = out + <usize>m * rowB;
    let n = 0;
    for (; n + 8 <= N; n += 8) tile1x8(a0, b + (<usize>n << 2), rowB, K, bias ? bias + (<usize>n << 2) : 0, o0 + (<usize>n << 2), accumulate);
    for (; n < N; n++) scalarDot(a0, b + (<usize>n << 2), rowB, K, bias ? bias + (<usize>n << 2) : 0, o0 + (<usize>n << 2), accumulate);
  }
}

@inline
function finish(acc: v128, bias: usize, out: usize, accumulate: i32): void {
  let v = acc;
  if (bias) v = f32x4.add(v, v128.load(bias));
  if (accumulate) v = f32x4.add(v128.load(out), v);
  v128.store(out, v);
}

@inline
function tile4x8(a: usize, rowA: usize, b: usize, rowB: usize, K: i32, bias: usize, out: usize, rowO: usize, accumulate: i32): void {
  let c00 = f32x4.splat(0), c01 = f32x4.splat(0), c10 = f32x4.splat(0), c11 = f32x4.splat(0);
  let c20 = f32x4.splat(0), c21 = f32x4.splat(0), c30 = f32x4.splat(0), c31 = f32x4.splat(0);
  const a1 = a + rowA, a2 = a1 + rowA, a3 = a2 + rowA;
  let pb = b;
  for (let k = 0; k < K; k++) {
    const ko = (<usize>k) << 2;
    const b0 = v128.load(pb), b1 = v128.load(pb, 16);
    const x0 = v128.load32_splat(a + ko), x1 = v128.load32_splat(a1 + ko), x2 = v128.load32_splat(a2 + ko), x3 = v128.load32_splat(a3 + ko);
    c00 = f32x4.add(c00, f32x4.mul(x0, b0)); c01 = f32x4.add(c01, f32x4.mul(x0, b1));
    c10 = f32x4.add(c10, f32x4.mul(x1, b0)); c11 = f32x4.add(c11, f32x4.mul(x1, b1));
    c20 = f32x4.add(c20, f32x4.mul(x2, b0)); c21 = f32x4.add(c21, f32x4.mul(x2, b1));
    c30 = f32x4.add(c30, f32x4.mul(x3, b0)); c31 = f32x4.add(c31, f32x4.mul(x3, b1));
    pb += rowB;
  }
  const bias1 = bias ? bias + 16 : 0;
  finish(c00, bias, out, accumulate); finish(c01, bias1, out + 16, accumulate);
  finish(c10, bias, out + rowO, accumulate); finish(c11, bias1, out + rowO + 16, accumulate);
  finish(c20, bias, out + 2 * rowO, accumulate); finish(c21, bias1, out + 2 * rowO + 16, accumulate);
  finish(c30, bias, out + 3 * rowO, accumulate); finish(c31, bias1, out + 3 * rowO + 16, accumulate);
}

@inline
function tile1x8(a: usize, b: usize, rowB: usize, K: i32, bias: usize, out: usize, accumulate: i32): void {
  let c0 = f32x4.splat(0), c1 = f32x4.splat(0);
  let pb = b;
  for (let k = 0; k < K; k++) {
    const x = v128.load32_splat(a + ((<usize>k) << 2));
    c0 = f32x4.add(c0, f32x4.mul(x, v128.load(pb)));
    c1 = f32x4.add(c1, f32x4.mul(x, v128.load(pb, 16)));
    pb += rowB;
  }
  finish(c0, bias, out, accumulate);
  finish(c1, bias ? bias + 16 : 0, out + 16, accumulate);
}

@inline
function scalarDot(a: usize, b: usize, rowB: usize, K: i32, bias: usize, out: usize, accumulate: i32): void {
  let acc: f32 = 0;
  let pb = b;
  for (let k = 0; k < K; k++) {
    acc += load<f32>(a + ((<usize>k) << 2)) * load<f32>(pb);
    pb += rowB;
  }
  if (bias) acc += load<f32>(bias);
  if (accumulate) acc = load<f32>(out) + acc;
  store<f32>(out, acc);
}

// ---- embeddings, layer norm, GELU's arithmetic, residuals ----------------------------------------

/**
 * x [T·B, D] (time-major) = one-hot(ids) @ wte + wpe[start + t]: the one-hot product is written
 * out (Σ over the vocabulary of 0·w and 1·w, from +0), so a NaN anywhere in wte spreads as the
 * matmul spreads it. ids [B, T] int32, batch-major.
 */
export function embed(ids: usize, wte: usize, wpe: usize, x: usize, B: i32, T: i32, V: i32, D: i32, start: i32): void {
  const rowD = (<usize>D) << 2;
  for (let t = 0; t < T; t++) {
    const pos = wpe + <usize>(start + t) * rowD;
    for (let b = 0; b < B; b++) {
      const id = load<i32>(ids + ((<usize>(b * T + t)) << 2));
      const row = x + <usize>(t * B + b) * rowD;
      for (let d = 0; d < D; d += 4) {
        const col = (<usize>d) << 2;
        let acc = f32x4.splat(0);
        for (let v = 0; v < V; v++) acc = f32x4.add(acc, f32x4.mul(f32x4.splat(v == id ? 1 : 0), v128.load(wte + <usize>v * rowD + col)));
        v128.store(row + col, f32x4.add(acc, v128.load(pos + col)));
      }
    }
  }
}

/**
 * Layer norm of each row of x [M, D], as model/ops.ts's layerNorm: mean, centred, mean square,
 * r = 1 / √(var + eps), x̂ = centred · r, y = x̂ · g + b. xhat [M, D] and r [M] are written
 * when non-zero (the backward reads them). Each row's sums in order, four rows side by side
 * (four chains of adds, which the CPU runs at once, where one waits on each add).
 */
export function layerNorm(x: usize, g: usize, b: usize, y: usize, xhat: usize, r: usize, M: i32, D: i32, eps: f32): void {
  const rowD = (<usize>D) << 2;
  const n = <f32>D;
  let m = 0;
  for (; m + 4 <= M; m += 4) {
    const r0 = x + <usize>m * rowD, r1 = r0 + rowD, r2 = r1 + rowD, r3 = r2 + rowD;
    let s0: f32 = 0, s1: f32 = 0, s2: f32 = 0, s3: f32 = 0;
    for (let d = 0; d < D; d++) {
      const o = (<usize>d) << 2;
      s0 += load<f32>(r0 + o); s1 += load<f32>(r1 + o); s2 += load<f32>(r2 + o); s3 += load<f32>(r3 + o);
    }
    const m0 = s0 / n, m1 = s1 / n, m2 = s2 / n, m3 = s3 / n;
    let q0: f32 = 0, q1: f32 = 0, q2: f32 = 0, q3: f32 = 0;
    for (let d = 0; d < D; d++) {
      const o = (<usize>d) << 2;
      const c0 = load<f32>(r0 + o) - m0, c1 = load<f32>(r1 + o) - m1, c2 = load<f32>(r2 + o) - m2, c3 = load<f32>(r3 + o) - m3;
      q0 += c0 * c0; q1 += c1 * c1; q2 += c2 * c2; q3 += c3 * c3;
    }
    normRow(r0, g, b, y, xhat, r, m, rowD, D, m0, <f32>1 / Mathf.sqrt(q0 / n + eps));
    normRow(r1, g, b, y, xhat, r, m + 1, rowD, D, m1, <f32>1 / Mathf.sqrt(q1 / n + eps));
    normRow(r2, g, b, y, xhat, r, m + 2, rowD, D, m2, <f32>1 / Mathf.sqrt(q2 / n + eps));
    normRow(r3, g, b, y, xhat, r, m + 3, rowD, D, m3, <f32>1 / Mathf.sqrt(q3 / n + eps));
  }
  for (; m < M; m++) {
    const row = x + <usize>m * rowD;
    let s: f32 = 0;
    for (let d = 0; d < D; d++) s += load<f32>(row + ((<usize>d) << 2));
    const mean = s / n;
    let q: f32 = 0;
    for (let d = 0; d < D; d++) {
      const c = load<f32>(row + ((<usize>d) << 2)) - mean;
      q += c * c;
    }
    normRow(row, g, b, y, xhat, r, m, rowD, D, mean, <f32>1 / Mathf.sqrt(q / n + eps));
  }
}

/** Row m's x̂ = (x − mean) · rm and y = x̂ · g + b, and rm into r when r ≠ 0. */
@inline
function normRow(row: usize, g: usize, b: usize, y: usize, xhat: usize, r: usize, m: i32, rowD: usize, D: i32, mean: f32, rm: f32): void {
  if (r) store<f32>(r + ((<usize>m) << 2), rm);
  const vm = f32x4.splat(mean), vr = f32x4.splat(rm);
  const out = y + <usize>m * rowD;
  const xh = xhat ? xhat + <usize>m * rowD : 0;
  for (let d = 0; d < D; d += 4) {
    const col = (<usize>d) << 2;
    const h = f32x4.mul(f32x4.sub(v128.load(row + col), vm), vr);
    if (xh) v128.store(xh + col, h);
    v128.store(out + col, f32x4.add(f32x4.mul(h, v128.load(g + col)), v128.load(b + col)));
  }
}

/** GELU's argument to the sigmoid, as model/ops.ts's geluParts: z = 2 · (c · (h + a · (h · (h · h)))), n a multiple of 4. */
export function geluArgument(h: usize, z: usize, n: i32, c: f32, a: f32): void {
  const vc = f32x4.splat(c), va = f32x4.splat(a), two = f32x4.splat(2);
  for (let i = 0; i < n; i += 4) {
    const p = (<usize>i) << 2;
    const x = v128.load(h + p);
    const u = f32x4.mul(vc, f32x4.add(x, f32x4.mul(va, f32x4.mul(x, f32x4.mul(x, x)))));
    v128.store(z + p, f32x4.mul(two, u));
  }
}

/** out = x · y elementwise, n a multiple of 4 (GELU's x·σ(2u); a dropout mask). */
export function mul(x: usize, y: usize, out: usize, n: i32): void {
  for (let i = 0; i < n; i += 4) {
    const p = (<usize>i) << 2;
    v128.store(out + p, f32x4.mul(v128.load(x + p), v128.load(y + p)));
  }
}

/** out = x + y elementwise, n a multiple of 4. */
export function add(x: usize, y: usize, out: usize, n: i32): void {
  for (let i = 0; i < n; i += 4) {
    const p = (<usize>i) << 2;
    v128.store(out + p, f32x4.add(v128.load(x + p), v128.load(y + p)));
  }
}

/** out [C, R] = x [R, C]ᵀ. */
export function transpose(x: usize, out: usize, R: i32, C: i32): void {
  for (let r = 0; r < R; r++) {
    for (let c = 0; c < C; c++) store<f32>(out + ((<usize>(c * R + r)) << 2), load<f32>(x + ((<usize>(r * C + c)) << 2)));
  }
}

// ---- attention -----------------------------------------------------------------------------------
//
// Activations are time-major, row t·B + b of [T·B, D]; head c = b·H + h. The cache holds keys as
// [C, hd, cap] (positions innermost: a query's scores over 4 positions are one vector) and values
// as [C, cap, hd] (a head's output over 4 of its dimensions is one vector), cap a multiple of 4.

/** Writes the keys and values of qkv [T·B, 3D] (positions start..start+T-1) into the cache. */
export function cacheWrite(qkv: usize, keys: usize, values: usize, T: i32, B: i32, H: i32, hd: i32, start: i32, cap: i32): void {
  const D = H * hd;
  for (let t = 0; t < T; t++) {
    const s = start + t;
    for (let b = 0; b < B; b++) {
      const row = qkv + ((<usize>((t * B + b) * 3 * D)) << 2);
      for (let h = 0; h < H; h++) {
        const c = b * H + h;
        const k = row + ((<usize>(D + h * hd)) << 2);
        const v = row + ((<usize>(2 * D + h * hd)) << 2);
        const kc = keys + ((<usize>(c * hd * cap + s)) << 2);
        for (let d = 0; d < hd; d++) store<f32>(kc + ((<usize>(d * cap)) << 2), load<f32>(k + ((<usize>d) << 2)));
        memory.copy(values + ((<usize>((c * cap + s) * hd)) << 2), v, (<usize>hd) << 2);
      }
    }
  }
}

/**
 * scores [T, C, S] for the queries of qkv at positions S − T .. S − 1 over the cache's first S
 * keys: Σ_d k·q in order, times scale; when T > 1, plus the causal mask (−0 where a query may see
 * the key, −1e9 elsewhere), as model/attention.ts's weights() adds it.
 */
export function attentionScores(qkv: usize, keys: usize, scores: usize, T: i32, B: i32, H: i32, hd: i32, S: i32, cap: i32, scale: f32): void {
  const D = H * hd;
  const C = B * H;
  const vs = f32x4.splat(scale);
  const far: f32 = -1e9;
  for (let t = 0; t < T; t++) {
    const sees = S - T + t; // the last key this query sees
    for (let b = 0; b < B; b++) {
      const q = qkv + ((<usize>((t * B + b) * 3 * D)) << 2);
      for (let h = 0; h < H; h++) {
        const c = b * H + h;
        const qh = q + ((<usize>(h * hd)) << 2);
        const kc = keys + ((<usize>(c * hd * cap)) << 2);
        const out = scores + ((<usize>((t * C + c) * S)) << 2);
        let s = 0;
        for (; s + 4 <= S; s += 4) {
          let acc = f32x4.splat(0);
          for (let d = 0; d < hd; d++) acc = f32x4.add(acc, f32x4.mul(v128.load(kc + ((<usize>(d * cap + s)) << 2)), v128.load32_splat(qh + ((<usize>d) << 2))));
          v128.store(out + ((<usize>s) << 2), f32x4.mul(acc, vs));
        }
        if (s < S) {
          // The last 1–3 positions as one vector (the cache has room up to cap); only they are kept.
          let acc = f32x4.splat(0);
          for (let d = 0; d < hd; d++) acc = f32x4.add(acc, f32x4.mul(v128.load(kc + ((<usize>(d * cap + s)) << 2)), v128.load32_splat(qh + ((<usize>d) << 2))));
          acc = f32x4.mul(acc, vs);
          const o = out + ((<usize>s) << 2);
          store<f32>(o, f32x4.extract_lane(acc, 0));
          if (s + 1 < S) store<f32>(o, f32x4.extract_lane(acc, 1), 4);
          if (s + 2 < S) store<f32>(o, f32x4.extract_lane(acc, 2), 8);
        }
        if (T > 1) {
          for (let j = 0; j < S; j++) {
            const p = out + ((<usize>j) << 2);
            store<f32>(p, load<f32>(p) + (j <= sees ? <f32>-0.0 : far));
          }
        }
      }
    }
  }
}

/**
 * y [T·B, D] = for each query and head, Σ_s p[t, c, s] · v[c, s, :] over the first S positions,
 * in order; a head's dimensions four vectors at a time (head sizes of 16; other multiples of 4 a
 * vector at a time).
 */
export function attentionValues(probs: usize, values: usize, y: usize, T: i32, B: i32, H: i32, hd: i32, S: i32, cap: i32): void {
  const D = H * hd;
  const C = B * H;
  for (let t = 0; t < T; t++) {
    for (let b = 0; b < B; b++) {
      for (let h = 0; h < H; h++) {
        const c = b * H + h;
        const p = probs + ((<usize>((t * C + c) * S)) << 2);
        const vc = values + ((<usize>(c * cap * hd)) << 2);
        const out = y + ((<usize>((t * B + b) * D + h * hd)) << 2);
        if (hd == 16) valuesOf16(p, vc, out, S);
        else {
          for (let d = 0; d < hd; d += 4) {
            let acc = f32x4.splat(0);
            for (let s = 0; s < S; s++) acc = f32x4.add(acc, f32x4.mul(v128.load32_splat(p + ((<usize>s) << 2)), v128.load(vc + ((<usize>(s * hd + d)) << 2))));
            v128.store(out + ((<usize>d) << 2), acc);
          }
        }
      }
    }
  }
}

@inline
function valuesOf16(p: usize, v: usize, out: usize, S: i32): void {
  let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
  let pv = v;
  for (let s = 0; s < S; s++) {
    const w = v128.load32_splat(p + ((<usize>s) << 2));
    a0 = f32x4.add(a0, f32x4.mul(w, v128.load(pv)));
    a1 = f32x4.add(a1, f32x4.mul(w, v128.load(pv, 16)));
    a2 = f32x4.add(a2, f32x4.mul(w, v128.load(pv, 32)));
    a3 = f32x4.add(a3, f32x4.mul(w, v128.load(pv, 48)));
    pv += 64;
  }
  v128.store(out, a0); v128.store(out, a1, 16); v128.store(out, a2, 32); v128.store(out, a3, 48);
}

/** logits [B, T, V] (batch-major) from rows [T·B, V] (time-major). */
export function toBatchMajor(x: usize, out: usize, T: i32, B: i32, V: i32): void {
  const row = (<usize>V) << 2;
  for (let t = 0; t < T; t++) {
    for (let b = 0; b < B; b++) memory.copy(out + <usize>(b * T + t) * row, x + <usize>(t * B + b) * row, row);
  }
}
