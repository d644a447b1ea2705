// Vitest global setup for `npm run test:sites`: `npm pack` once (prepack builds the library), for
// every file to install the same tarball.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { pack, type Packed } from '../browser/consumers';
import { removeSite } from '../browser/site';

declare module 'vitest' {
  export interface ProvidedContext {
    packed: Packed;
    packSeconds: number;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const work = mkdtempSync(join(tmpdir(), 'plate-sites-'));
  const t0 = performance.now();
  project.provide('packed', await pack(work));
  project.provide('packSeconds', (performance.now() - t0) / 1000);
  return () => removeSite(work);
}
