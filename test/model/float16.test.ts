// float16, the dtype checkpoints store: exact on the way back, nearest (ties to even) on the way in.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/lib/rng';
import { float16Bits, float16Value, FLOAT16_MAX, fromFloat16, toFloat16 } from '../../src/model/float16';

const finiteBits = Array.from({ length: 0x10000 }, (_, h) => h).filter((h) => (h & 0x7c00) !== 0x7c00);

describe('float16', () => {
  it('gives every finite float16 back as the same bits, and its value exactly in float32', () => {
    const wrong = finiteBits.filter((h) => {
      const x = float16Value(h);
      return Math.fround(x) !== x || float16Bits(x) !== h;
    });
    expect(wrong).toEqual([]);
    expect(float16Value(0x3c00)).toBe(1);
    expect(float16Value(0xc000)).toBe(-2);
    expect(float16Value(0x7bff)).toBe(FLOAT16_MAX);
    expect(float16Value(0x0001)).toBe(2 ** -24); // the smallest subnormal
    expect(Object.is(float16Value(0x8000), -0)).toBe(true);
  });

  it('rounds to the nearest float16, a tie to the even one', () => {
    expect(float16Bits(1 + 2 ** -11)).toBe(0x3c00); // halfway between 1 and 1 + 2⁻¹⁰: the even, 1
    expect(float16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02); // halfway between 0x3c01 and 0x3c02: the even
    expect(float16Bits(1 + 2 ** -11 + 2 ** -20)).toBe(0x3c01); // just past halfway: up
    expect(float16Bits(2 ** -25)).toBe(0); // half the smallest subnormal: a tie, to even 0
    expect(float16Bits(1.5 * 2 ** -25)).toBe(1); // past it: the smallest subnormal
    expect(float16Bits(2 ** -14 - 2 ** -25)).toBe(0x0400); // the largest subnormal's carry: the smallest normal
    expect(float16Bits(65519)).toBe(0x7bff); // below halfway to 65536: the largest finite
    expect(float16Bits(-0)).toBe(0x8000);
  });

  it('has no bits for a value beyond ±65504 once rounded, nor for NaN and infinities', () => {
    for (const x of [65520, -65520, 1e6, NaN, Infinity, -Infinity]) expect(float16Bits(x), String(x)).toBe(-1);
    expect(toFloat16([0.5, 70000, 1])).toMatchObject({ unrepresentable: 1 });
    expect(toFloat16([0.5, 1]).unrepresentable).toBeNull();
  });

  it('rounds 100,000 random float32s of a trained weight’s size to the nearer of their two float16 neighbours', () => {
    const rng = createRng(7);
    const wrong: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const x = Math.fround((rng.next() - 0.5) * 2 ** (rng.next() * 24 - 18));
      const h = float16Bits(x);
      const y = float16Value(h);
      // The float16 on x's other side of y, one step away.
      const other = float16Value(y === 0 ? (x > 0 ? 1 : 0x8001) : Math.abs(x) > Math.abs(y) ? h + 1 : h - 1);
      const [dy, dOther] = [Math.abs(x - y), Math.abs(x - other)];
      if (dy > dOther || (dy === dOther && (h & 1) === 1)) wrong.push(`${x} → ${y}, not ${other}`);
    }
    expect(wrong).toEqual([]);
  });

  it('decodes arrays as it encodes them', () => {
    const values = new Float32Array([0.1, -3.25, 1e-6, 0]);
    const back = fromFloat16(toFloat16(values).bits);
    expect([...back]).toEqual([...values].map((x) => float16Value(float16Bits(x))));
    expect(back[1]).toBe(-3.25);
  });
});
