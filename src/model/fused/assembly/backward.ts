// AssemblyScript: the arithmetic of the model's hand-written backward passes (model/ops.ts,
// model/attention.ts), each sum in the order the unfused tfjs kernels run it (see forward.ts).
// Layouts as in forward.ts: activations time-major [T·B, ·], head c = b·H + h, S = T keys.

// ---- products with a transposed operand -----------------------------------------------------------

/**
 * out [K, N] = x [M, K]ᵀ @ y [M, N], the sum over m in order (as transpose(x) @ y). The rows go
 * in blocks that stay in cache, each block's partial sums kept in out between blocks: a stored
 * float32 reloads as the same value, so the sums are the same.
 */
export function matmulTN(x: usize, y: usize, out: usize, M: i32, K: i32, N: i32): void {
  for (let m0 = 0; m0 < M; m0 += TN_BLOCK) matmulTNBlock(x, y, out, m0, min(M, m0 + TN_BLOCK), K, N);
}

const TN_BLOCK = 64;

function matmulTNBlock(x: usize, y: usize, out: usize, m0: i32, m1: i32, K: i32, N: i32): void {
  const rowX = (<usize>K) << 2;
  const rowY = (<usize>N) << 2;
  const first = m0 == 0;
  let k = 0;
  for (; k + 4 <= K; k += 4) {
    let n = 0;
    for (; n + 8 <= N; n += 8) {
      const o = out + <usize>k * rowY + ((<usize>n) << 2);
      let c00 = f32x4.splat(0), c01 = f32x4.splat(0), c10 = f32x4.splat(0), c11 = f32x4.splat(0);
      let c20 = f32x4.splat(0), c21 = f32x4.splat(0), c30 = f32x4.splat(0), c31 = f32x4.splat(0);
      if (!first) {
        c00 = v128.load(o); c01 = v128.load(o, 16);
        c10 = v128.load(o + rowY); c11 = v128.load(o + rowY, 16);
        c20 = v128.load(o + 2 * rowY); c21 = v128.load(o + 2 * rowY, 16);
        c30 = v128.load(o + 3 * rowY); c31 = v128.load(o + 3 * rowY, 16);
      }
      let px = x + <usize>m0 * rowX + ((<usize>k) << 2);
      let py = y + <usize>m0 * rowY + ((<usize>n) << 2);
      for (let m = m0; m < m1; m++) {
        const b0 = v128.load(py), b1 = v128.load(py, 16);
        const x0 = v128.load32_splat(px), x1 = v128.load32_splat(px, 4), x2 = v128.load32_splat(px, 8), x3 = v128.load32_splat(px, 12);
        c00 = f32x4.add(c00, f32x4.mul(x0, b0)); c01 = f32x4.add(c01, f32x4.mul(x0, b1));
        c10 = f32x4.add(c10, f32x4.mul(x1, b0)); c11 = f32x4.add(c11, f32x4.mul(x1, b1));
        c20 = f32x4.add(c20, f32x4.mul(x2, b0)); c21 = f32x4.add(c21, f32x4.mul(x2, b1));
        c30 = f32x4.add(c30, f32x4.mul(x3, b0)); c31 = f32x4.add(c31, f32x4.mul(x3, b1));
        px += rowX;
        py += rowY;
      }
      v128.store(o, c00); v128.store(o, c01, 16);
      v128.store(o + rowY, c10); v128.store(o + rowY, c11, 16);
      v128.store(o + 2 * rowY, c20); v128.store(o + 2 * rowY, c21, 16);
      v128.store(o + 3 * rowY, c30); v128.store(o + 3 * rowY, c31, 16);
    }
    for (; n < N; n++) for (let r = 0; r < 4; r++) scalarTN(x + ((<usize>(k + r)) << 2), rowX, y + ((<usize>n) << 2), rowY, m0, m1, out + <usize>(k + r) * rowY + ((<usize>n) << 2));
  }
  for (; k < K; k++) for (let n = 0; n < N; n++) scalarTN(x + ((<usize>k) << 2), rowX, y + ((<usize>n) << 2), rowY, m0, m1, out + <usize>k * rowY + ((<usize>n) << 2));
}

@inline
function scalarTN(x: usize, rowX: usize, y: usize, rowY: usize, m0: i32, m1: i32, out: usize): void {
  let acc: f32 = m0 == 0 ? 0 : load<f32>(out);
  for (let m = m0; m < m1; m++) acc += load<f32>(x + <usize>m * rowX) * load<f32>(y + <usize>m * rowY);
  store<f32>(out, acc);
}

/** out [N] = Σ over rows of x [M, N] (as ones [1, M] @ x: model/ops.ts's sumRows); with y ≠ 0, of x · y. */
export function columnSums(x: usize, y: usize, out: usize, M: i32, N: i32): void {
  const row = (<usize>N) << 2;
  let n = 0;
  for (; n + 4 <= N; n += 4) {
    let acc = f32x4.splat(0);
    const col = (<usize>n) << 2;
    for (let m = 0; m < M; m++) {
      const at = <usize>m * row + col;
      acc = f32x4.add(acc, y ? f32x4.mul(v128.load(x + at), v128.load(y + at)) : v128.load(x + at));
    }
    v128.store(out + col, acc);
  }
  for (; n < N; n++) {
    let acc: f32 = 0;
    const col = (<usize>n) << 2;
    for (let m = 0; m < M; m++) {
      const at = <usize>m * row + col;
      acc += y ? load<f32>(x + at) * load<f32>(y + at) : load<f32>(x + at);
    }
    store<f32>(out + col, acc);
  }
}

// ---- layer norm, GELU ------------------------------------------------------------------------------

/**
 * Layer norm's backward per row, as model/ops.ts: dx̂ = dy · g, dx = r · ((dx̂ − mean(dx̂)) − x̂ ·
 * mean(dx̂ · x̂)), into dx, or with accumulate ≠ 0 added into it (the residual stream's gradient:
 * dx + that, as tfjs adds a tensor's two gradients).
 */
export function layerNormBackward(dy: usize, xhat: usize, r: usize, g: usize, dx: usize, M: i32, D: i32, accumulate: i32): void {
  const rowD = (<usize>D) << 2;
  const n = <f32>D;
  for (let m = 0; m < M; m++) {
    const d0 = dy + <usize>m * rowD;
    const x0 = xhat + <usize>m * rowD;
    let s1: f32 = 0, s2: f32 = 0;
    for (let d = 0; d < D; d++) {
      const o = (<usize>d) << 2;
      const dxh = load<f32>(d0 + o) * load<f32>(g + o);
      s1 += dxh;
      s2 += dxh * load<f32>(x0 + o);
    }
    const m1 = f32x4.splat(s1 / n), m2 = f32x4.splat(s2 / n), rm = v128.load32_splat(r + ((<usize>m) << 2));
    const out = dx + <usize>m * rowD;
    for (let d = 0; d < D; d += 4) {
      const o = (<usize>d) << 2;
      const dxh = f32x4.mul(v128.load(d0 + o), v128.load(g + o));
      const v = f32x4.mul(rm, f32x4.sub(f32x4.sub(dxh, m1), f32x4.mul(v128.load(x0 + o), m2)));
      v128.store(out + o, accumulate ? f32x4.add(v128.load(out + o), v) : v);
    }
  }
}

/**
 * dh = G · gelu′(h), as model/ops.ts's geluSlope from s = σ(2u): s + (s · (1 − s)) · (h · dz),
 * dz = h² · c6a + c2 (c6a = 6·c·a, c2 = 2·c as float32). n a multiple of 4; dh may be G.
 */
export function geluBackward(G: usize, h: usize, s: usize, dh: usize, n: i32, c6a: f32, c2: f32): void {
  const v6 = f32x4.splat(c6a), v2 = f32x4.splat(c2), one = f32x4.splat(1);
  for (let i = 0; i < n; i += 4) {
    const p = (<usize>i) << 2;
    const x = v128.load(h + p), sv = v128.load(s + p);
    const dz = f32x4.add(f32x4.mul(f32x4.mul(x, x), v6), v2);
    const slope = f32x4.add(sv, f32x4.mul(f32x4.mul(sv, f32x4.sub(one, sv)), f32x4.mul(x, dz)));
    v128.store(dh + p, f32x4.mul(v128.load(G + p), slope));
  }
}

// ---- attention ---------------------------------------------------------------------------------------

/** out [C, hd, cap] (positions innermost) from the block at column `col` of qkv [T·B, 3D]: the keys' layout, for any of q, k, v. */
export function headsByPosition(qkv: usize, col: i32, out: usize, T: i32, B: i32, H: i32, hd: i32, cap: i32): void {
  const D = H * hd;
  for (let t = 0; t < T; t++) {
    for (let b = 0; b < B; b++) {
      const row = qkv + ((<usize>((t * B + b) * 3 * D + col)) << 2);
      for (let h = 0; h < H; h++) {
        const src = row + ((<usize>(h * hd)) << 2);
        const dst = out + ((<usize>((b * H + h) * hd * cap + t)) << 2);
        for (let d = 0; d < hd; d++) store<f32>(dst + ((<usize>(d * cap)) << 2), load<f32>(src + ((<usize>d) << 2)));
      }
    }
  }
}

/**
 * Attention's backward from dY [T·B, D] (the merged heads' gradient), as model/attention.ts's
 * attentionBlock: dp = dY·Vᵀ, ds = P ⊙ (dp − Σ dp ⊙ P) · scale, then dq = dS·K, dk = dSᵀ·Q,
 * dv = Pᵀ·dY into dqkv [T·B, 3D]. vT: the values as [C, hd, cap]; ds: scratch [T, C, T].
 */
export function attentionBackward(dY: usize, qkv: usize, vT: usize, probs: usize, ds: usize, dqkv: usize, T: i32, B: i32, H: i32, hd: i32, cap: i32, scale: f32): void {
  scoreGrads(dY, vT, probs, ds, T, B, H, hd, cap, scale);
  const D = H * hd;
  const C = B * H;
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < H; h++) {
      const c = b * H + h;
      for (let t = 0; t < T; t++) {
        const row = ((<usize>((t * B + b) * 3 * D + h * hd)) << 2);
        if (hd == 16) {
          gradsOf16(qkv, dY, ds, probs, dqkv + row, t, b, h, c, B, C, D, T);
          continue;
        }
        for (let d = 0; d < hd; d += 4) {
          const o = (<usize>d) << 2;
          let aq = f32x4.splat(0), ak = f32x4.splat(0), av = f32x4.splat(0);
          for (let j = 0; j < T; j++) {
            const rj = ((<usize>((j * B + b) * 3 * D + h * hd)) << 2) + o;
            // dq[t] = Σ_j ds[t, c, j] · k[j]; dk[t] = Σ_j ds[j, c, t] · q[j]; dv[t] = Σ_j p[j, c, t] · dY[j]
            aq = f32x4.add(aq, f32x4.mul(v128.load32_splat(ds + ((<usize>((t * C + c) * T + j)) << 2)), v128.load(qkv + rj + ((<usize>D) << 2))));
            ak = f32x4.add(ak, f32x4.mul(v128.load32_splat(ds + ((<usize>((j * C + c) * T + t)) << 2)), v128.load(qkv + rj)));
            av = f32x4.add(av, f32x4.mul(v128.load32_splat(probs + ((<usize>((j * C + c) * T + t)) << 2)), v128.load(dY + ((<usize>((j * B + b) * D + h * hd + d)) << 2))));
          }
          v128.store(dqkv + row + o, aq);
          v128.store(dqkv + row + o + ((<usize>D) << 2), ak);
          v128.store(dqkv + row + o + ((<usize>(2 * D)) << 2), av);
        }
      }
    }
  }
}

/** attentionBackward's dq, dk, dv for one query position t of head c, a head of 16: all four vectors of each in one pass over j. */
@inline
function gradsOf16(qkv: usize, dY: usize, ds: usize, probs: usize, out: usize, t: i32, b: i32, h: i32, c: i32, B: i32, C: i32, D: i32, T: i32): void {
  let q0 = f32x4.splat(0), q1 = f32x4.splat(0), q2 = f32x4.splat(0), q3 = f32x4.splat(0);
  let k0 = f32x4.splat(0), k1 = f32x4.splat(0), k2 = f32x4.splat(0), k3 = f32x4.splat(0);
  let v0 = f32x4.splat(0), v1 = f32x4.splat(0), v2 = f32x4.splat(0), v3 = f32x4.splat(0);
  const kOff = (<usize>D) << 2;
  for (let j = 0; j < T; j++) {
    const rj = qkv + ((<usize>((j * B + b) * 3 * D + h * 16)) << 2);
    const yj = dY + ((<usize>((j * B + b) * D + h * 16)) << 2);
    const wq = v128.load32_splat(ds + ((<usize>((t * C + c) * T + j)) << 2));
    const wk = v128.load32_splat(ds + ((<usize>((j * C + c) * T + t)) << 2));
    const wv = v128.load32_splat(probs + ((<usize>((j * C + c) * T + t)) << 2));
    q0 = f32x4.add(q0, f32x4.mul(wq, v128.load(rj + kOff))); q1 = f32x4.add(q1, f32x4.mul(wq, v128.load(rj + kOff, 16)));
    q2 = f32x4.add(q2, f32x4.mul(wq, v128.load(rj + kOff, 32))); q3 = f32x4.add(q3, f32x4.mul(wq, v128.load(rj + kOff, 48)));
    k0 = f32x4.add(k0, f32x4.mul(wk, v128.load(rj))); k1 = f32x4.add(k1, f32x4.mul(wk, v128.load(rj, 16)));
    k2 = f32x4.add(k2, f32x4.mul(wk, v128.load(rj, 32))); k3 = f32x4.add(k3, f32x4.mul(wk, v128.load(rj, 48)));
    v0 = f32x4.add(v0, f32x4.mul(wv, v128.load(yj))); v1 = f32x4.add(v1, f32x4.mul(wv, v128.load(yj, 16)));
    v2 = f32x4.add(v2, f32x4.mul(wv, v128.load(yj, 32))); v3 = f32x4.add(v3, f32x4.mul(wv, v128.load(yj, 48)));
  }
  v128.store(out, q0); v128.store(out, q1, 16); v128.store(out, q2, 32); v128.store(out, q3, 48);
  const ok = out + kOff;
  v128.store(ok, k0); v128.store(ok, k1, 16); v128.store(ok, k2, 32); v128.store(ok, k3, 48);
  const ov = ok + kOff;
  v128.store(ov, v0); v128.store(ov, v1, 16); v128.store(ov, v2, 32); v128.store(ov, v3, 48);
}

/** ds [T, C, T] from dY and the probabilities. */
function scoreGrads(dY: usize, vT: usize, probs: usize, ds: usize, T: i32, B: i32, H: i32, hd: i32, cap: i32, scale: f32): void {
  const D = H * hd;
  const C = B * H;
  for (let t = 0; t < T; t++) {
    for (let b = 0; b < B; b++) {
      for (let h = 0; h < H; h++) {
        const c = b * H + h;
        const dy = dY + ((<usize>((t * B + b) * D + h * hd)) << 2);
        const v = vT + ((<usize>(c * hd * cap)) << 2);
        const out = ds + ((<usize>((t * C + c) * T)) << 2);
        const p = probs + ((<usize>((t * C + c) * T)) << 2);
        let s = 0;
        for (; s + 4 <= T; s += 4) {
          let acc = f32x4.splat(0);
          for (let d = 0; d < hd; d++) acc = f32x4.add(acc, f32x4.mul(v128.load32_splat(dy + ((<usize>d) << 2)), v128.load(v + ((<usize>(d * cap + s)) << 2))));
          v128.store(out + ((<usize>s) << 2), acc);
        }
        for (; s < T; s++) {
          let acc: f32 = 0;
          for (let d = 0; d < hd; d++) acc += load<f32>(dy + ((<usize>d) << 2)) * load<f32>(v + ((<usize>(d * cap + s)) << 2));
          store<f32>(out + ((<usize>s) << 2), acc);
        }
        let sum: f32 = 0;
        for (let j = 0; j < T; j++) sum += load<f32>(out + ((<usize>j) << 2)) * load<f32>(p + ((<usize>j) << 2));
        for (let j = 0; j < T; j++) {
          const o = (<usize>j) << 2;
          store<f32>(out + o, (load<f32>(p + o) * (load<f32>(out + o) - sum)) * scale);
        }
      }
    }
  }
}

// ---- embeddings ----------------------------------------------------------------------------------------

/**
 * The embeddings' gradients from dx [T·B, D]: dwte [V, D] = one-hot(ids)ᵀ @ dx (written out, as
 * the one-hot matmul's gradient sums it), dwpe [context, D]: rows start.. = Σ over the batch of
 * each position's rows, the others 0. ids [B, T] int32.
 */
export function embedBackward(ids: usize, dx: usize, dwte: usize, dwpe: usize, B: i32, T: i32, V: i32, D: i32, context: i32, start: i32): void {
  const rowD = (<usize>D) << 2;
  // Row by row, each of dwte's sums kept in dwte (4 KB at the plate's size, in cache throughout).
  memory.fill(dwte, 0, <usize>V * rowD);
  for (let t = 0; t < T; t++) {
    for (let b = 0; b < B; b++) {
      const id = load<i32>(ids + ((<usize>(b * T + t)) << 2));
      const row = dx + <usize>(t * B + b) * rowD;
      for (let v = 0; v < V; v++) {
        const hot = f32x4.splat(v == id ? <f32>1 : <f32>0);
        const o = dwte + <usize>v * rowD;
        for (let d = 0; d < D; d += 4) {
          const col = (<usize>d) << 2;
          v128.store(o + col, f32x4.add(v128.load(o + col), f32x4.mul(hot, v128.load(row + col))));
        }
      }
    }
  }
  memory.fill(dwpe, 0, <usize>context * rowD);
  for (let t = 0; t < T; t++) {
    for (let d = 0; d < D; d += 4) {
      const col = (<usize>d) << 2;
      let acc = f32x4.splat(0);
      for (let b = 0; b < B; b++) acc = f32x4.add(acc, v128.load(dx + <usize>(t * B + b) * rowD + col));
      v128.store(dwpe + <usize>(start + t) * rowD + col, acc);
    }
  }
}

// ---- the optimiser ------------------------------------------------------------------------------------

/**
 * One Adam step on n floats, as model/adam.ts's CpuAdam rounds it: m and v updated in place, the
 * new weights into out. c1 = 1 − β1^t, c2 = 1 − β2^t.
 */
export function adamStep(w: usize, g: usize, m: usize, v: usize, out: usize, n: i32, beta1: f32, beta2: f32, oneMinusBeta1: f32, oneMinusBeta2: f32, negLr: f32, eps: f32, c1: f32, c2: f32): void {
  const b1 = f32x4.splat(beta1), b2 = f32x4.splat(beta2), o1 = f32x4.splat(oneMinusBeta1), o2 = f32x4.splat(oneMinusBeta2);
  const lr = f32x4.splat(negLr), e = f32x4.splat(eps), k1 = f32x4.splat(c1), k2 = f32x4.splat(c2);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const p = (<usize>i) << 2;
    const gi = v128.load(g + p);
    const mi = f32x4.add(f32x4.mul(v128.load(m + p), b1), f32x4.mul(gi, o1));
    const vi = f32x4.add(f32x4.mul(v128.load(v + p), b2), f32x4.mul(f32x4.mul(gi, gi), o2));
    v128.store(m + p, mi);
    v128.store(v + p, vi);
    const step = f32x4.div(f32x4.div(mi, k1), f32x4.add(f32x4.sqrt(f32x4.div(vi, k2)), e));
    v128.store(out + p, f32x4.add(f32x4.mul(step, lr), v128.load(w + p)));
  }
  for (; i < n; i++) {
    const p = (<usize>i) << 2;
    const gi = load<f32>(g + p);
    const mi = load<f32>(m + p) * beta1 + gi * oneMinusBeta1;
    const vi = load<f32>(v + p) * beta2 + gi * gi * oneMinusBeta2;
    store<f32>(m + p, mi);
    store<f32>(v + p, vi);
    const step = (mi / c1) / (Mathf.sqrt(vi / c2) + eps);
    store<f32>(out + p, step * negLr + load<f32>(w + p));
  }
}
