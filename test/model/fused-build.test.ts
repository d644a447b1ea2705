import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { KERNELS_WASM } from '../../src/model/fused/kernels-wasm';

/** The ids of a WebAssembly binary's sections, in order. */
function sectionIds(bytes: Uint8Array): number[] {
  const ids: number[] = [];
  for (let i = 8; i < bytes.length;) {
    ids.push(bytes[i++]!);
    let size = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[i++]!;
      size |= (b & 0x7f) << shift;
      if (!(b & 0x80)) break;
    }
    i += size;
  }
  return ids;
}

const committed = Uint8Array.from(atob(KERNELS_WASM), (c) => c.charCodeAt(0));

describe('the fused kernels’ WebAssembly', () => {
  it('is what its AssemblyScript source compiles to (run npm run build:kernels after changing the source)', () => {
    // The build script's own check, run as npm runs it: it compiles the source and compares.
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build/kernels.ts', '--check'], {
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/is what its AssemblyScript compiles to/);
  }, 240_000); // 19 s alone, 60 s once with a core held busy beside other jobs

  it('imports only the memory it is given, and has no data or start function to write into it on loading', () => {
    const module = new WebAssembly.Module(committed);
    expect(WebAssembly.Module.imports(module)).toEqual([{ module: 'env', name: 'memory', kind: 'memory' }]);
    const ids = sectionIds(committed);
    expect(ids).not.toContain(8); // start
    expect(ids).not.toContain(11); // data
    expect(ids).not.toContain(12); // data count
    expect(ids).toContain(10); // code: the parse found the sections
  });
});
