/**
 * The fused kernels' WebAssembly module (assembly/*.ts, built into kernels-wasm.ts) instantiated
 * on the tfjs WASM backend's own memory, and what the kernels need of that backend: where a
 * tensor lives, scratch space, and tfjs's own sigmoid and softmax (XNNPACK's, run on our scratch
 * so that the fused path keeps the unfused path's bits).
 *
 * `fusedModule()` is null wherever the fused path cannot run — another backend, a WASM build
 * whose memory is shared between threads or not reachable, or the switch turned off — and the
 * model then runs its unfused tfjs ops, with the same values.
 */
import * as tf from '@tensorflow/tfjs';
import { KERNELS_WASM } from './kernels-wasm';

/** The module's exports (assembly/forward.ts and assembly/backward.ts say what each computes). Pointers are byte offsets. */
export interface KernelExports {
  matmul(a: number, b: number, bias: number, out: number, M: number, K: number, N: number, accumulate: number): void;
  embed(
    ids: number,
    wte: number,
    wpe: number,
    x: number,
    B: number,
    T: number,
    V: number,
    D: number,
    start: number,
  ): void;
  layerNorm(
    x: number,
    g: number,
    b: number,
    y: number,
    xhat: number,
    r: number,
    M: number,
    D: number,
    eps: number,
  ): void;
  geluArgument(h: number, z: number, n: number, c: number, a: number): void;
  mul(x: number, y: number, out: number, n: number): void;
  add(x: number, y: number, out: number, n: number): void;
  transpose(x: number, out: number, R: number, C: number): void;
  cacheWrite(
    qkv: number,
    keys: number,
    values: number,
    T: number,
    B: number,
    H: number,
    hd: number,
    start: number,
    cap: number,
  ): void;
  attentionScores(
    qkv: number,
    keys: number,
    scores: number,
    T: number,
    B: number,
    H: number,
    hd: number,
    S: number,
    cap: number,
    scale: number,
  ): void;
  attentionValues(
    probs: number,
    values: number,
    y: number,
    T: number,
    B: number,
    H: number,
    hd: number,
    S: number,
    cap: number,
  ): void;
  toBatchMajor(x: number, out: number, T: number, B: number, V: number): void;
  matmulTN(x: number, y: number, out: number, M: number, K: number, N: number): void;
  columnSums(x: number, y: number, out: number, M: number, N: number): void;
  layerNormBackward(
    dy: number,
    xhat: number,
    r: number,
    g: number,
    dx: number,
    M: number,
    D: number,
    accumulate: number,
  ): void;
  geluBackward(G: number, h: number, s: number, dh: number, n: number, c6a: number, c2: number): void;
  headsByPosition(
    qkv: number,
    col: number,
    out: number,
    T: number,
    B: number,
    H: number,
    hd: number,
    cap: number,
  ): void;
  attentionBackward(
    dY: number,
    qkv: number,
    vT: number,
    probs: number,
    ds: number,
    dqkv: number,
    T: number,
    B: number,
    H: number,
    hd: number,
    cap: number,
    scale: number,
  ): void;
  embedBackward(
    ids: number,
    dx: number,
    dwte: number,
    dwpe: number,
    B: number,
    T: number,
    V: number,
    D: number,
    context: number,
    start: number,
  ): void;
  divide(x: number, out: number, n: number, t: number): void;
  shiftByMax(x: number, shifted: number, rows: number, V: number): void;
  rowSums(e: number, sums: number, rows: number, V: number): void;
  pickTargets(shifted: number, logSums: number, targets: number, logp: number, rows: number, V: number): void;
  targetsBackward(
    dlogp: number,
    softmax: number,
    targets: number,
    out: number,
    rows: number,
    V: number,
    t: number,
  ): void;
  adamStep(
    w: number,
    g: number,
    m: number,
    v: number,
    out: number,
    n: number,
    beta1: number,
    beta2: number,
    oneMinusBeta1: number,
    oneMinusBeta2: number,
    negLr: number,
    eps: number,
    c1: number,
    c2: number,
  ): void;
}

/** What the kernels use of tfjs-backend-wasm's Emscripten module (internal to 4.22, pinned in package.json). */
interface EmscriptenModule {
  asm?: { memory?: WebAssembly.Memory };
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _register_tensor(id: number, size: number, offset: number): void;
  _dispose_data(id: number): void;
  _Sigmoid(xId: number, outId: number): void;
  _Exp(xId: number, dtype: number, outId: number): void;
  _Log(xId: number, dtype: number, outId: number): void;
  _Softmax(xId: number, outId: number, channels: number, batch: number): void;
}

/** The part of tfjs-backend-wasm's BackendWasm the kernels use. */
/** What tfjs hands a kernel function on WASM: its inputs, the backend, the attributes `A`. */
export type KernelArgs<A> = { inputs: Record<string, tf.TensorInfo>; backend: WasmBackend; attrs: A };

export interface WasmBackend {
  wasm: EmscriptenModule;
  dataIdNextNumber: number;
  dataIdMap: { get(dataId: object): { memoryOffset: number } | undefined };
  makeOutput(shape: number[], dtype: tf.DataType): tf.TensorInfo;
  incRef(dataId: object): void;
  disposeData(dataId: object): boolean;
}

/** The env flag that turns the fused kernels on and off (benches pair the two paths; default on). */
const FUSED_FLAG = 'MULTI_TURN_RL_FUSED';
let flagRegistered = false;

function fusedEnabled(): boolean {
  if (!flagRegistered) {
    tf.env().registerFlag(FUSED_FLAG, () => true);
    flagRegistered = true;
  }
  return tf.env().getBool(FUSED_FLAG);
}

/** Turns the fused kernels on or off for the next model calls (the unfused path gives the same values). */
export function setFused(on: boolean): void {
  fusedEnabled();
  tf.env().set(FUSED_FLAG, on);
}

let compiled: WebAssembly.Module | undefined;
const instances = new WeakMap<WasmBackend, FusedModule | null>();

/** The fused kernels on the active backend, or null where they cannot run (see above). */
export function fusedModule(): FusedModule | null {
  if (!fusedEnabled() || tf.getBackend() !== 'wasm') return null;
  return moduleOf(tf.backend() as unknown as WasmBackend);
}

/** The fused kernels on this WASM backend, instantiated on its memory the first time. */
export function moduleOf(backend: WasmBackend): FusedModule | null {
  let m = instances.get(backend);
  if (m === undefined) {
    m = FusedModule.on(backend);
    instances.set(backend, m);
  }
  return m;
}

/** The exports, the products among them counting their FLOPs into `add`. */
function countingFlops(k: KernelExports, add: (flops: number) => void): KernelExports {
  return {
    ...k,
    matmul: (a, b, bias, out, M, K, N, acc) => (add(2 * M * K * N), k.matmul(a, b, bias, out, M, K, N, acc)),
    matmulTN: (x, y, out, M, K, N) => (add(2 * M * K * N), k.matmulTN(x, y, out, M, K, N)),
    attentionScores: (qkv, keys, scores, T, B, H, hd, S, cap, scale) => (
      add(2 * T * B * H * S * hd),
      k.attentionScores(qkv, keys, scores, T, B, H, hd, S, cap, scale)
    ),
    attentionValues: (probs, values, y, T, B, H, hd, S, cap) => (
      add(2 * T * B * H * S * hd),
      k.attentionValues(probs, values, y, T, B, H, hd, S, cap)
    ),
    // dp = dY·Vᵀ, then dq, dk, dv: four products of the forward's size.
    attentionBackward: (dY, qkv, vT, probs, ds, dqkv, T, B, H, hd, cap, scale) => (
      add(8 * T * B * H * T * hd),
      k.attentionBackward(dY, qkv, vT, probs, ds, dqkv, T, B, H, hd, cap, scale)
    ),
  };
}

function wasmBytes(): Uint8Array {
  const text = atob(KERNELS_WASM);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** One scratch region: a float offset into the heap per named part. */
export type Scratch = Record<string, number>;

export class FusedModule {
  private scratchPtr = 0;
  private scratchBytes = 0;

  /**
   * Floating-point operations the products have run (2·M·K·N per matmul, the same count for
   * attention's per-head products; not the elementwise work): the benches' floors read it.
   */
  flops = 0;
  readonly k: KernelExports;

  private constructor(
    readonly backend: WasmBackend,
    exports: KernelExports,
  ) {
    this.k = countingFlops(exports, (n) => (this.flops += n));
  }

  /** Null when the backend's memory is not reachable or is shared (a threaded build). */
  static on(backend: WasmBackend): FusedModule | null {
    const memory = backend.wasm.asm?.memory;
    if (!(memory instanceof WebAssembly.Memory)) return null;
    if (typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer) return null;
    compiled ??= new WebAssembly.Module(wasmBytes() as BufferSource);
    const instance = new WebAssembly.Instance(compiled, { env: { memory } });
    return new FusedModule(backend, instance.exports as unknown as KernelExports);
  }

  /** Where a tensor's data lives in the heap (bytes). */
  offset(t: tf.TensorInfo): number {
    const data = this.backend.dataIdMap.get(t.dataId);
    if (!data) throw new Error('fused kernels: a tensor that is not on the WASM backend');
    return data.memoryOffset;
  }

  /**
   * Scratch space for one kernel call: parts named with their sizes in floats, each 16-byte
   * aligned; valid until the next call of `scratch` (the arena grows, and is never shrunk).
   */
  scratch(parts: Record<string, number>): Scratch {
    let total = 0;
    const at: Scratch = {};
    for (const [name, floats] of Object.entries(parts)) {
      at[name] = total;
      total += Math.ceil(floats / 4) * 16;
    }
    if (total > this.scratchBytes) {
      if (this.scratchPtr) this.backend.wasm._free(this.scratchPtr);
      this.scratchBytes = Math.max(total, 2 * this.scratchBytes);
      this.scratchPtr = this.backend.wasm._malloc(this.scratchBytes) >>> 0;
      if (!this.scratchPtr) throw new Error(`fused kernels: could not allocate ${this.scratchBytes} bytes of scratch`);
    }
    for (const name of Object.keys(at)) at[name]! += this.scratchPtr;
    return at;
  }

  /** tfjs's sigmoid (XNNPACK) of n floats at x into out. */
  sigmoid(x: number, out: number, n: number): void {
    this.withIds([x, n], [out, n], (xi, oi) => this.backend.wasm._Sigmoid(xi, oi));
  }

  /** tfjs's exp or log (the C library's) of n floats at x into out. */
  unary(fn: 'exp' | 'log', x: number, out: number, n: number): void {
    const w = this.backend.wasm;
    const float32 = 0; // tfjs-backend-wasm's CppDType
    this.withIds([x, n], [out, n], (xi, oi) => (fn === 'exp' ? w._Exp(xi, float32, oi) : w._Log(xi, float32, oi)));
  }

  /** tfjs's softmax (XNNPACK) over rows of `channels` floats, `rows` of them, at x into out. */
  softmax(x: number, out: number, channels: number, rows: number): void {
    const n = channels * rows;
    this.withIds([x, n], [out, n], (xi, oi) => this.backend.wasm._Softmax(xi, oi, channels, rows));
  }

  /** Registers two heap regions as tfjs tensors for one call of tfjs's own C functions. */
  private withIds(a: [number, number], b: [number, number], f: (ai: number, bi: number) => void): void {
    const w = this.backend.wasm;
    const ai = this.backend.dataIdNextNumber++;
    const bi = this.backend.dataIdNextNumber++;
    w._register_tensor(ai, a[1], a[0]);
    w._register_tensor(bi, b[1], b[0]);
    try {
      f(ai, bi);
    } finally {
      w._dispose_data(ai);
      w._dispose_data(bi);
    }
  }
}

/**
 * Puts `tensor` among the saved tensors of the gradient tape's node that made `output`, uncopied:
 * save() would copy it (tfjs clones what is saved, and on WASM a clone is a copy of megabytes for
 * the training tape). The engine hands the node's saved tensors to the backward and disposes them
 * after the backward pass, and model/gradients.ts's variableGrads disposes them when the forward
 * throws, so the tensor is freed on every path (test/model/fused-train.test.ts counts tensors).
 */
export function handOver(output: tf.Tensor, tensor: tf.Tensor): void {
  const nodes = tf.engine().state.activeTape ?? [];
  const node = [...nodes].reverse().find((n) => n.outputs[0] === output);
  if (!node) {
    tensor.dispose();
    throw new Error(
      'fused kernels: the gradient tape has no node for this output (a tfjs whose engine differs from 4.22?)',
    );
  }
  node.saved!.push(tensor);
}

/** Whether a gradient tape records the ops run now (as tfjs's engine decides it). */
export function recording(): boolean {
  const state = tf.engine().state;
  return state.gradientDepth > 0 && state.kernelDepth === 0;
}
