/**
 * Where the plate's files are: the checkpoints, the precomputed reference runs, tfjs's .wasm,
 * and how the training worker starts. By default the ones that come with the plate
 * (src/ui/bundled-assets.ts: this page's own bundle, or in the package its prebuilt folder,
 * dist-lib/plate-<version>/). With `assetBase`, a copy of that folder, laid out as FOLDER says
 * (public/ here has the same layout for the data files):
 *   training.worker.mjs  tfjs-backend-{wasm,webgl,webgpu}.mjs  tfjs-backend-wasm-simd.wasm
 *   checkpoints/agent/{manifest.json,weights.bin}  checkpoints/pretrained/…  checkpoints/agent-three-calls/…
 *   reference-runs.json  reference-runs-three-calls.json
 */
import { CHECKPOINTS } from '../config';
import type { WorkerSource } from '../client/useTrainingWorker';
import type { BackendModules, CheckpointUrls, WasmFiles } from '../protocol/messages';

export interface PlateAssets {
  checkpoints: CheckpointUrls;
  /** URL of reference-runs.json. */
  referenceRuns: string;
  /** URL of reference-runs-three-calls.json: fetched only when the reader picks the three-call agent (two or three calls, or that agent on one call). */
  referenceRunsThreeCalls: string;
  wasm: WasmFiles;
  worker: WorkerSource;
  /** The backends' modules, which a prebuilt worker imports by URL; absent where the worker bundles its own (the page). */
  backends?: BackendModules;
}

/** The package's folder of files, by name: the library build writes it, `assetsAt` reads a copy of it. */
export const FOLDER = {
  worker: 'training.worker.mjs',
  backends: { wasm: 'tfjs-backend-wasm.mjs', webgl: 'tfjs-backend-webgl.mjs', webgpu: 'tfjs-backend-webgpu.mjs' },
  /** The SIMD build serves for all three of tfjs's names (src/ui/wasm-files.ts says why). */
  wasm: 'tfjs-backend-wasm-simd.wasm',
  checkpoints: {
    agent: `${CHECKPOINTS.agent}/`,
    pretrained: `${CHECKPOINTS.pretrained}/`,
    agentThreeCalls: `${CHECKPOINTS.agentThreeCalls}/`,
  },
  referenceRuns: 'reference-runs.json',
  referenceRunsThreeCalls: 'reference-runs-three-calls.json',
  /** The custom element with React, for a page with no bundler, and its stylesheet. */
  element: 'plate-multi-turn-rl.js',
  stylesheet: 'plate-multi-turn-rl.css',
  /** The licences of the packages bundled into these files. */
  notices: 'THIRD-PARTY-LICENSES.txt',
} as const;

export const wasmFiles = (simd: string): WasmFiles => ({
  'tfjs-backend-wasm.wasm': simd,
  'tfjs-backend-wasm-simd.wasm': simd,
  'tfjs-backend-wasm-threaded-simd.wasm': simd,
});

/**
 * The files under `base` (absolute, or relative to `documentUrl`) instead of `bundled`. Where the
 * bundle's worker is prebuilt (the package), the folder's worker and backends are taken too —
 * the worker only from this page's origin, since browsers start no worker from another.
 */
export function assetsAt(base: string, documentUrl: string, bundled: PlateAssets): PlateAssets {
  const root = new URL(base, documentUrl);
  if (!root.pathname.endsWith('/')) root.pathname += '/';
  const at = (path: string) => new URL(path, root).href;
  const prebuilt = 'url' in bundled.worker;
  const sameOrigin = root.origin === new URL(documentUrl).origin;
  return {
    checkpoints: {
      agent: at(FOLDER.checkpoints.agent),
      pretrained: at(FOLDER.checkpoints.pretrained),
      agentThreeCalls: at(FOLDER.checkpoints.agentThreeCalls),
    },
    referenceRuns: at(FOLDER.referenceRuns),
    referenceRunsThreeCalls: at(FOLDER.referenceRunsThreeCalls),
    wasm: wasmFiles(at(FOLDER.wasm)),
    worker: prebuilt && sameOrigin ? { url: at(FOLDER.worker) } : bundled.worker,
    ...(bundled.backends && {
      backends: {
        wasm: at(FOLDER.backends.wasm),
        webgl: at(FOLDER.backends.webgl),
        webgpu: at(FOLDER.backends.webgpu),
      },
    }),
  };
}
