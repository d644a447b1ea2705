import { describe, expect, it } from 'vitest';
import { propsFromAttributes } from '../../src/ui/element';
import { parseUrlOptions, xrefKind } from '../../src/ui/options';

describe('parseUrlOptions', () => {
  it('reads every option of a well-formed query', () => {
    const { options, notes } = parseUrlOptions('?start=pretrained&faulty=1&seed=7&steps=3&backend=wasm&autorun=1&embed=1&xref=https://v.example/{ref}');
    expect(options).toEqual({ start: 'pretrained', faulty: true, seed: 7, steps: 3, backend: 'wasm', autorun: true, embed: true, xrefPattern: 'https://v.example/{ref}' });
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

  it('treats //host and /\\host patterns as links to another host, written with slashes', () => {
    expect(xrefKind('//evil.example/{ref}')).toBe('absolute');
    expect(xrefKind('/\\evil.example/{ref}')).toBe('absolute');
    expect(xrefKind('/plates/{ref}/')).toBe('relative');
    expect(xrefKind('./{ref}.html')).toBe('relative');
    expect(xrefKind('javascript:alert("{ref}")')).toBeNull();
    expect(parseUrlOptions('?xref=/\\evil.example/{ref}').options.xrefPattern).toBe('//evil.example/{ref}');
  });

  it('treats a bare flag as on and 0 as off', () => {
    expect(parseUrlOptions('?autorun&faulty=0').options).toEqual({ autorun: true, faulty: false });
  });
});

describe('propsFromAttributes (the custom element)', () => {
  it('reads the attributes like the URL, with boolean attributes on when present', () => {
    const attrs: Record<string, string> = { autorun: '', faulty: '', steps: '5', 'xref-pattern': '/plates/{ref}/', 'asset-base': '/plate/' };
    expect(propsFromAttributes((n) => attrs[n] ?? null)).toEqual({
      autorun: true, faulty: true, steps: 5, xrefPattern: '/plates/{ref}/', assetBase: '/plate/', notes: [],
    });
  });

  it('notes a bad attribute, and leaves the asset folder to the library unless one is given', () => {
    const attrs: Record<string, string> = { seed: 'x', 'xref-pattern': 'no-ref-here', start: 'scratch' };
    const props = propsFromAttributes((n) => attrs[n] ?? null);
    expect(props.assetBase).toBeUndefined();
    expect(props.start).toBe('scratch');
    expect(props.xrefPattern).toBeUndefined();
    expect(props.notes).toHaveLength(2);
  });
});
