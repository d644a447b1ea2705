/**
 * Where the plate's files are: the two checkpoints, the precomputed reference runs, tfjs's .wasm.
 * By default the ones that come with the plate (src/ui/bundled-assets.ts); with `assetBase`, a
 * folder laid out as the package's dist-lib/assets/ is (public/ here, plus the .wasm):
 *   checkpoints/agent/{manifest.json,weights.bin}  checkpoints/pretrained/…
 *   reference-runs.json  tfjs-backend-wasm-simd.wasm
 */
import { CHECKPOINTS } from '../config';
import type { CheckpointUrls, WasmFiles } from '../protocol/messages';

export interface PlateAssets {
  checkpoints: CheckpointUrls;
  /** URL of reference-runs.json. */
  referenceRuns: string;
  wasm: WasmFiles;
}

/** The SIMD build serves for all three names (src/ui/wasm-files.ts says why). */
const WASM_FILE = 'tfjs-backend-wasm-simd.wasm';

/** The files under `base` (absolute, or relative to `documentUrl`). */
export function assetsAt(base: string, documentUrl: string): PlateAssets {
  const root = new URL(base, documentUrl);
  if (!root.pathname.endsWith('/')) root.pathname += '/';
  const at = (path: string) => new URL(path, root).href;
  const wasm = at(WASM_FILE);
  return {
    checkpoints: { agent: at(`${CHECKPOINTS.agent}/`), pretrained: at(`${CHECKPOINTS.pretrained}/`) },
    referenceRuns: at('reference-runs.json'),
    wasm: { 'tfjs-backend-wasm.wasm': wasm, 'tfjs-backend-wasm-simd.wasm': wasm, 'tfjs-backend-wasm-threaded-simd.wasm': wasm },
  };
}
