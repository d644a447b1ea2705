/**
 * IEEE 754 binary16 ("half", float16), the dtype checkpoints store their weights in: half the
 * bytes of float32, and the shipped model's weights lose nothing a greedy evaluation sees
 * (docs/results.md). Rounding is to nearest, ties to even, as IEEE's default and numpy's
 * `astype(float16)`; subnormals are kept. Decoding is exact: every float16 is a float32.
 * Plain TypeScript, no tfjs: the worker, the Node scripts and the build share it.
 */

/**
 * The largest finite float16; a value that rounds beyond it has no float16.
 * @internal A test seam: exported for test/model/float16.test.ts.
 */
export const FLOAT16_MAX = 65504;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * The float16 bits nearest `x` (ties to even), or -1 when x is NaN, infinite or rounds beyond
 * ±65504 (the caller names the weight). -0 keeps its sign.
 * @internal A test seam: exported for test/model/float16.test.ts.
 */
export function float16Bits(x: number): number {
  f32[0] = x; // float32 first: the value a float32 tensor holds
  const b = u32[0]!;
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  const mant = b & 0x7fffff;
  if (exp === 0xff) return -1; // NaN or ±Infinity
  const e = exp - 127 + 15; // the exponent rebiased for float16
  if (e >= 0x1f) return -1;
  if (e <= 0) {
    // A float16 subnormal (or zero): the implicit 1 joins the mantissa, shifted right by 14 − e.
    if (e < -10) return sign; // below half the smallest subnormal: ±0
    const shift = 14 - e;
    return sign | roundShift(mant | 0x800000, shift);
  }
  // Carry from rounding flows into the exponent (and to 0x7c00, infinity, at the top).
  const bits = sign | ((e << 10) + roundShift(mant, 13));
  return (bits & 0x7fff) >= 0x7c00 ? -1 : bits;
}

/** m >> shift, rounded to nearest with ties to even. */
function roundShift(m: number, shift: number): number {
  const kept = m >>> shift;
  const rest = m & ((1 << shift) - 1);
  const half = 1 << (shift - 1);
  return rest > half || (rest === half && (kept & 1) === 1) ? kept + 1 : kept;
}

/**
 * The value of float16 bits (exact in float32); NaN and ±Infinity for those bit patterns.
 * @internal A test seam: exported for test/model/float16.test.ts.
 */
export function float16Value(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant === 0 ? sign * Infinity : NaN;
  return sign * (1024 + mant) * 2 ** (exp - 25);
}

/** Whether float16 bits hold a finite number (the exponent is not all ones). */
export const isFiniteFloat16 = (h: number): boolean => (h & 0x7c00) !== 0x7c00;

/** Every value's float16 bits; the index of the first value that has none, if any. */
export function toFloat16(values: ArrayLike<number>): {
  bits: Uint16Array<ArrayBuffer>;
  unrepresentable: number | null;
} {
  const bits = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const h = float16Bits(values[i]!);
    if (h < 0) return { bits, unrepresentable: i };
    bits[i] = h;
  }
  return { bits, unrepresentable: null };
}

/** float16 bits as float32 values. */
export function fromFloat16(bits: Uint16Array): Float32Array<ArrayBuffer> {
  const out = new Float32Array(bits.length);
  for (let i = 0; i < bits.length; i++) out[i] = float16Value(bits[i]!);
  return out;
}
