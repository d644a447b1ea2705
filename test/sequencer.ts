// Vitest's file order with the longest files of each project first, also on a clean clone. With no
// timings (CI) Vitest keeps the glob's order, which starts the two longest unit files last, side by
// side, while the browser tests wait for them; the longest first lets the short files fill in.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first, from `npm test`'s own per-file times. */
const LONGEST = [
  'test/scripts/pipeline.test.ts',
  'test/model/fused-build.test.ts',
  'test/worker/session.test.ts',
  'test/pipeline/three-calls.test.ts',
  'test/e2e/backends.e2e.test.ts',
  'test/e2e/restricted-engine.e2e.test.ts',
  'test/e2e/explain.e2e.test.ts',
  'test/e2e/page-runs.e2e.test.ts',
  'test/e2e/page.e2e.test.ts',
];

export default class LongestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const order = await super.sort(files);
    for (const path of [...LONGEST].reverse()) {
      const i = order.findIndex((f) => relative(f.project.config.root, f.moduleId) === path);
      if (i < 0) continue;
      const [spec] = order.splice(i, 1);
      const first = order.findIndex((f) => f.project.name === spec!.project.name);
      order.splice(first < 0 ? order.length : first, 0, spec!);
    }
    return order;
  }
}
