import { describe, expect, it } from 'vitest';
import { parseUrlOptions } from '../../src/ui/options';

describe('parseUrlOptions', () => {
  it('reads every option of a well-formed query', () => {
    const { options, notes } = parseUrlOptions('?faulty=1&seed=7&steps=3&backend=wasm&autorun=1&embed=1&xref=https://v.example/{ref}');
    expect(options).toEqual({ faulty: true, seed: 7, steps: 3, backend: 'wasm', autorun: true, embed: true, xrefPattern: 'https://v.example/{ref}' });
    expect(notes).toEqual([]);
  });

  it('ignores bad values with a note naming the key, the value and what was expected', () => {
    const { options, notes } = parseUrlOptions('?faulty=maybe&seed=-1&steps=400&backend=gpu&xref=javascript:alert(1)');
    expect(options).toEqual({});
    expect(notes).toHaveLength(5);
    expect(notes[0]).toBe('Ignored faulty=maybe: expected 0 or 1.');
    expect(notes[2]).toBe('Ignored steps=400: expected a whole number from 1 to 40.');
    expect(notes[3]).toContain('webgpu, webgl, wasm, cpu');
  });

  it('leaves unknown keys to the host page', () => {
    expect(parseUrlOptions('?utm_source=x&seed=2')).toEqual({ options: { seed: 2 }, notes: [] });
  });

  it('treats a bare flag as on and 0 as off', () => {
    expect(parseUrlOptions('?autorun&faulty=0').options).toEqual({ autorun: true, faulty: false });
  });
});
