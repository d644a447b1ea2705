/** Where the plate's files are: the two checkpoints, the precomputed reference runs, tfjs's .wasm. */
import { CHECKPOINTS } from '../config';
import type { CheckpointUrls, WasmFiles } from '../protocol/messages';
import { WASM } from './wasm-files';

export interface PlateAssets {
  checkpoints: CheckpointUrls;
  /** URL of reference-runs.json. */
  referenceRuns: string;
  wasm: WasmFiles;
}

/** The layout of public/ under `base` (absolute, or relative to the document). */
export function assetsAt(base: string): PlateAssets {
  const root = new URL(base, typeof document === 'undefined' ? undefined : document.baseURI);
  if (!root.pathname.endsWith('/')) root.pathname += '/';
  const at = (path: string) => new URL(path, root).href;
  return {
    checkpoints: { agent: at(`${CHECKPOINTS.agent}/`), pretrained: at(`${CHECKPOINTS.pretrained}/`) },
    referenceRuns: at('reference-runs.json'),
    wasm: WASM,
  };
}
