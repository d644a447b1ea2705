// The weights' layout in the package: lossless, smaller once gzipped, and undone by the worker's
// fetch, which then holds the card's very bits. The shipped weights are float16: two planes.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fromBytePlanes, isBytePlanes, toBytePlanes } from '../../src/model/byte-planes';
import { CheckpointError, weightsDigest } from '../../src/model/checkpoint';
import { fetchCheckpoint } from '../../src/worker/checkpoint-fetch';

const AGENT = resolve(import.meta.dirname, '../../public/checkpoints/agent');
const file = (name: string) => {
  const b = readFileSync(resolve(AGENT, name));
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
};
const weights = file('weights.bin');
const manifest = JSON.parse(readFileSync(resolve(AGENT, 'manifest.json'), 'utf8')) as {
  card: { weightsDigest: string };
};
const bytes = (b: ArrayBuffer) => Buffer.from(new Uint8Array(b));
const HALF = 2; // bytes per float16

describe('byte planes', () => {
  it('give back the shipped agent’s bits exactly, and a plain file is never taken for one', () => {
    const planes = toBytePlanes(weights, HALF);
    expect(isBytePlanes(planes)).toBe(true);
    expect(isBytePlanes(weights)).toBe(false);
    expect(bytes(fromBytePlanes(planes, HALF)).equals(bytes(weights))).toBe(true);
    expect(weightsDigest(fromBytePlanes(planes, HALF))).toBe(manifest.card.weightsDigest);
  });

  it('regroup the bytes by position: the first plane holds every value’s lowest byte, for any width', () => {
    const halves = new Uint16Array([0x3c00, 0xc000, 0x3800]); // 1, -2, 0.5 as float16
    const two = new Uint8Array(toBytePlanes(halves.buffer, 2));
    expect([...two.subarray(8)]).toEqual([0x00, 0x00, 0x00, 0x3c, 0xc0, 0x38]);
    const f = new Float32Array([1, -2, 0.5]);
    const four = new Uint8Array(toBytePlanes(f.buffer, 4));
    const raw = new Uint8Array(f.buffer);
    expect([...four.subarray(8, 11)]).toEqual([raw[0], raw[4], raw[8]]);
    expect([...four.subarray(17, 20)]).toEqual([raw[3], raw[7], raw[11]]);
    expect(bytes(fromBytePlanes(four.buffer, 4)).equals(bytes(f.buffer))).toBe(true);
  });

  it('shrink the trained float16 weights by more than 7% once gzipped', () => {
    // The agent's 208,416 bytes: 192,876 gzipped plain, 179,248 in planes (7.1% less).
    const plain = gzipSync(bytes(weights), { level: 9 }).length;
    const planes = gzipSync(bytes(toBytePlanes(weights, HALF)), { level: 9 }).length;
    expect(planes / plain).toBeLessThan(0.93);
  });

  it('are undone by the worker’s fetch, which checks the bits against the card’s digest', async () => {
    const planes = toBytePlanes(weights, HALF);
    const serve =
      (body: ArrayBuffer): typeof fetch =>
      async (url) =>
        String(url).endsWith('manifest.json')
          ? new Response(readFileSync(resolve(AGENT, 'manifest.json')))
          : new Response(body);
    const got = await fetchCheckpoint('https://example.org/agent/', serve(planes));
    expect(bytes(got.weights).equals(bytes(weights))).toBe(true);
    const flipped = new Uint8Array(planes.slice(0));
    flipped[100] = flipped[100]! ^ 1; // one bit, in the low bytes: still finite, still the right length
    const e = await fetchCheckpoint('https://example.org/agent/', serve(flipped.buffer)).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(CheckpointError);
    expect((e as Error).message).toMatch(
      /^https:\/\/example\.org\/agent\/weights\.bin: holds weights with digest [0-9a-f]{8}, the manifest names [0-9a-f]{8}$/,
    );
  });
});
