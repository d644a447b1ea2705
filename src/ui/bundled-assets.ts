/**
 * The plate's own files, imported so that the bundler (this page's Vite, or a library consumer's
 * Vite or webpack) emits them with hashed names: no copy step, no assetBase. In the library they
 * read `new URL('./assets/…', import.meta.url)`. `no-inline` keeps them files, not data: URLs;
 * the manifests (4 KB each) travel as JSON inside the bundle, the large files as URLs.
 */
import agentManifest from '../../public/checkpoints/agent/manifest.json';
import agentWeights from '../../public/checkpoints/agent/weights.bin?url&no-inline';
import pretrainedManifest from '../../public/checkpoints/pretrained/manifest.json';
import pretrainedWeights from '../../public/checkpoints/pretrained/weights.bin?url&no-inline';
import referenceRuns from '../../public/reference-runs.json?url&no-inline';
import { absolute } from './absolute';
import type { PlateAssets } from './assets';
import { WASM } from './wasm-files';

export const BUNDLED: PlateAssets = {
  checkpoints: {
    agent: { manifest: agentManifest, weights: absolute(agentWeights) },
    pretrained: { manifest: pretrainedManifest, weights: absolute(pretrainedWeights) },
  },
  referenceRuns: absolute(referenceRuns),
  wasm: WASM,
};
