/**
 * A lossless layout for a weights file in transit: an 8-byte tag, then the bytes of its values
 * regrouped by position (every value's first byte, then every second, …: two planes for the
 * float16 weights checkpoints store). The high bytes (sign, exponent and the top of the mantissa)
 * of trained weights repeat, so gzip shrinks the regrouped file more: a shipped checkpoint's
 * float16 weights take ~7% less gzipped (test/model/byte-planes.test.ts measures it). (Blosc's and
 * HDF5's shuffle filter.) The files in public/ stay plain; the library build writes this layout
 * (scripts/build/lib-build.ts) and the worker undoes it as it fetches (worker/checkpoint-fetch.ts),
 * reading the value's width from the manifest's dtype.
 */
const TAG = 'BPLANES1';

export function isBytePlanes(file: ArrayBuffer): boolean {
  if (file.byteLength < TAG.length) return false;
  const head = new Uint8Array(file, 0, TAG.length);
  return [...TAG].every((c, i) => head[i] === c.charCodeAt(0));
}

/** `plain`'s values of `width` bytes each, regrouped into planes behind the tag. */
export function toBytePlanes(plain: ArrayBuffer, width: number): ArrayBuffer {
  if (plain.byteLength % width !== 0)
    throw new Error(`toBytePlanes: ${plain.byteLength} bytes is not a whole number of ${width}-byte values`);
  const src = new Uint8Array(plain);
  const n = src.length / width;
  const out = new Uint8Array(TAG.length + src.length);
  out.set([...TAG].map((c) => c.charCodeAt(0)));
  for (let i = 0; i < n; i++) for (let b = 0; b < width; b++) out[TAG.length + b * n + i] = src[i * width + b]!;
  return out.buffer;
}

/** The plain bytes back from a byte-planes file of `width`-byte values. */
export function fromBytePlanes(file: ArrayBuffer, width: number): ArrayBuffer {
  if (!isBytePlanes(file)) throw new Error('fromBytePlanes: not a byte-planes file');
  if ((file.byteLength - TAG.length) % width !== 0)
    throw new Error(
      `fromBytePlanes: ${file.byteLength - TAG.length} bytes is not a whole number of ${width}-byte values`,
    );
  const src = new Uint8Array(file, TAG.length);
  const n = src.length / width;
  const out = new Uint8Array(src.length);
  for (let i = 0; i < n; i++) for (let b = 0; b < width; b++) out[i * width + b] = src[b * n + i]!;
  return out.buffer;
}
