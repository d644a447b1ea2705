/**
 * The library's own copies of the plate's files, imported so that the consumer's bundler emits
 * them (hashed) with its build: no copy step, no assetBase. `no-inline` keeps the library build
 * from turning them into data: URLs; the manifests travel as JSON inside the bundle, the large
 * files as URLs relative to it. Only the library imports this module.
 */
import agentManifest from '../../public/checkpoints/agent/manifest.json';
import agentWeights from '../../public/checkpoints/agent/weights.bin?url&no-inline';
import pretrainedManifest from '../../public/checkpoints/pretrained/manifest.json';
import pretrainedWeights from '../../public/checkpoints/pretrained/weights.bin?url&no-inline';
import referenceRuns from '../../public/reference-runs.json?url&no-inline';
import type { PlateAssets } from './assets';
import { WASM } from './wasm-files';

const absolute = (url: string) => new URL(url, import.meta.url).href;

export const BUNDLED: PlateAssets = {
  checkpoints: {
    agent: { manifest: agentManifest, weights: absolute(agentWeights) },
    pretrained: { manifest: pretrainedManifest, weights: absolute(pretrainedWeights) },
  },
  referenceRuns: absolute(referenceRuns),
  wasm: WASM,
};
