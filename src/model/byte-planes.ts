/**
 * A lossless layout for a weights file in transit: an 8-byte tag, then the bytes of its float32s
 * regrouped by position (every first byte, then every second, third, fourth). The sign-and-exponent
 * bytes of trained weights repeat, so gzip shrinks the regrouped file more: the two shipped
 * checkpoints take 712 KB gzipped instead of 774 KB, which keeps the package under its 1 MB budget.
 * (Blosc's and HDF5's shuffle filter.) The files in public/ stay plain; the library build writes
 * this layout (scripts/build/lib-build.ts) and the worker undoes it as it fetches (worker/checkpoint-fetch.ts).
 */
const TAG = 'BPLANES1';
const WIDTH = 4; // bytes per float32

export function isBytePlanes(file: ArrayBuffer): boolean {
  if (file.byteLength < TAG.length || (file.byteLength - TAG.length) % WIDTH !== 0) return false;
  const head = new Uint8Array(file, 0, TAG.length);
  return [...TAG].every((c, i) => head[i] === c.charCodeAt(0));
}

export function toBytePlanes(plain: ArrayBuffer): ArrayBuffer {
  if (plain.byteLength % WIDTH !== 0)
    throw new Error(`toBytePlanes: ${plain.byteLength} bytes is not a whole number of float32s`);
  const src = new Uint8Array(plain);
  const n = src.length / WIDTH;
  const out = new Uint8Array(TAG.length + src.length);
  out.set([...TAG].map((c) => c.charCodeAt(0)));
  for (let i = 0; i < n; i++) for (let b = 0; b < WIDTH; b++) out[TAG.length + b * n + i] = src[i * WIDTH + b]!;
  return out.buffer;
}

export function fromBytePlanes(file: ArrayBuffer): ArrayBuffer {
  if (!isBytePlanes(file)) throw new Error('fromBytePlanes: not a byte-planes file');
  const src = new Uint8Array(file, TAG.length);
  const n = src.length / WIDTH;
  const out = new Uint8Array(src.length);
  for (let i = 0; i < n; i++) for (let b = 0; b < WIDTH; b++) out[i * WIDTH + b] = src[b * n + i]!;
  return out.buffer;
}
