import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ATTRIBUTES } from '../../src/ui/element';
import { propsTable, PROPS } from '../../src/ui/props';

describe('the documented props', () => {
  it('appear in docs/embedding.md exactly as the code documents them', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../../docs/embedding.md'), 'utf8');
    expect(doc, `docs/embedding.md should hold this table:\n${propsTable()}`).toContain(propsTable());
  });

  it('name every attribute the element observes, and no other', () => {
    const documented = Object.values(PROPS).flatMap((d) => (d.attribute ? [d.attribute] : []));
    expect([...documented].sort()).toEqual([...ATTRIBUTES].sort());
  });
});
