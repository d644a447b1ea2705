// docs/embedding.md as a site developer follows it from the top: the install that works today,
// and the React it takes, as package.json says it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const doc = readFileSync(resolve(ROOT, 'docs/embedding.md'), 'utf8');
const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  peerDependencies: Record<string, string>;
};

describe('docs/embedding.md', () => {
  it('leads with the tarball npm pack writes, and says why (the package is not published yet)', () => {
    const firstInstall = /```sh\n([\s\S]*?)```/.exec(doc)![1]!;
    expect(firstInstall).toMatch(/^npm pack\b/m);
    expect(firstInstall).toMatch(new RegExp(`^npm install \\S*${pkg.name}-[\\d.]+\\.tgz\\b`, 'm'));
    expect(doc.slice(0, doc.indexOf('```sh'))).toMatch(/not on the npm registry yet/);
  });

  it('names the React versions package.json’s peer range takes', () => {
    expect(pkg.peerDependencies['react-dom']).toBe(pkg.peerDependencies.react);
    expect(doc).toContain(`(\`${pkg.peerDependencies.react}\`)`);
  });

  it('tells a Vue site about isCustomElement and every site about the “use client” warning', () => {
    expect(doc).toMatch(/isCustomElement: \(tag\) => tag === 'plate-multi-turn-rl'/);
    expect(doc).toMatch(/MODULE_LEVEL_DIRECTIVE/);
    expect(doc).toMatch(/plate-multi-turn-rl\.css/); // Rollup's stylesheet, linked from the folder
  });
});
