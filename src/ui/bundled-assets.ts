/**
 * The plate's own files as this page's Vite build brings them: imported, so that they are emitted
 * with hashed names (no copy step, no assetBase), and the training worker built from its source.
 * `no-inline` keeps them files, not data: URLs; the manifests (4 KB each) travel as JSON inside
 * the bundle, the large files as URLs. The package replaces this module with its prebuilt folder
 * (scripts/build/lib-build.ts: the same files, `new URL('./plate-<version>/…', import.meta.url)`).
 */
import agentManifest from '../../public/checkpoints/agent/manifest.json';
import agentWeights from '../../public/checkpoints/agent/weights.bin?url&no-inline';
import pretrainedManifest from '../../public/checkpoints/pretrained/manifest.json';
import pretrainedWeights from '../../public/checkpoints/pretrained/weights.bin?url&no-inline';
import agentThreeCallsManifest from '../../public/checkpoints/agent-three-calls/manifest.json';
import agentThreeCallsWeights from '../../public/checkpoints/agent-three-calls/weights.bin?url&no-inline';
import referenceRuns from '../../public/reference-runs.json?url&no-inline';
import referenceRunsThreeCalls from '../../public/reference-runs-three-calls.json?url&no-inline';
import { absolute } from './absolute';
import { wasmFiles, type PlateAssets } from './assets';
import { WASM_SIMD } from './wasm-files';

export const BUNDLED: PlateAssets = {
  checkpoints: {
    agent: { manifest: agentManifest, weights: absolute(agentWeights) },
    pretrained: { manifest: pretrainedManifest, weights: absolute(pretrainedWeights) },
    agentThreeCalls: { manifest: agentThreeCallsManifest, weights: absolute(agentThreeCallsWeights) },
  },
  referenceRuns: absolute(referenceRuns),
  referenceRunsThreeCalls: absolute(referenceRunsThreeCalls),
  wasm: wasmFiles(absolute(WASM_SIMD)),
  // The form Vite recognises: it builds the worker, splitting tfjs's backends into chunks of their own.
  worker: {
    start: () =>
      new Worker(new URL('../worker/training.worker.ts', import.meta.url), { type: 'module', name: 'training' }),
  },
};
