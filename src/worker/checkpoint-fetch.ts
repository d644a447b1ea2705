// Reading a checkpoint over HTTP, as src/node/checkpoint-fs.ts reads one from disk, and checking
// it. Every failure is a CheckpointError naming the file's URL; the checks live in model/.
import { fromBytePlanes, isBytePlanes } from '../model/byte-planes';
import {
  BYTES_PER_VALUE,
  CheckpointError,
  checkManifest,
  checkWeights,
  MANIFEST_FILE,
  parseManifest,
  storedDtype,
  weightsDigest,
  type CheckpointFiles,
  type Manifest,
} from '../model/checkpoint';
import { FIX_FILES } from '../protocol/files';
import type { CheckpointSource } from '../protocol/messages';

/** A folder URL (absolute, or relative to the worker's own location), or a bundled manifest and its weights' URL. */
export async function fetchCheckpoint(
  source: CheckpointSource,
  fetchImpl: typeof fetch = fetch,
): Promise<CheckpointFiles> {
  if (typeof source !== 'string') {
    const weightsUrl = new URL(source.weights, globalThis.location?.href).href;
    const where = new URL('./', weightsUrl).href;
    const manifest = checkManifest(source.manifest, `the bundled ${MANIFEST_FILE} of ${weightsUrl}`);
    const weights = plain(manifest, await (await get(weightsUrl, fetchImpl)).arrayBuffer(), weightsUrl);
    checkWeights(manifest, weights, where, weightsUrl);
    return { manifest, weights, where };
  }
  const folderUrl = source;
  const where = new URL(folderUrl.endsWith('/') ? folderUrl : folderUrl + '/', globalThis.location?.href).href;
  const manifestUrl = new URL(MANIFEST_FILE, where).href;
  const manifest = parseManifest(await (await get(manifestUrl, fetchImpl)).text(), where);
  const weightsUrl = new URL(manifest.weightsFile, where).href;
  const weights = plain(manifest, await (await get(weightsUrl, fetchImpl)).arrayBuffer(), weightsUrl);
  checkWeights(manifest, weights, where); // now, so a broken file is named at load, not at the first run
  return { manifest, weights, where };
}

async function get(url: string, fetchImpl: typeof fetch): Promise<Response> {
  let res: Response;
  try {
    res = await fetchImpl(url);
  } catch (e) {
    throw new CheckpointError(url, `could not be fetched (${(e as Error).message}); ${FIX_FILES}`);
  }
  if (res.status === 404) throw new CheckpointError(url, `is missing (HTTP 404); ${FIX_FILES}`);
  if (!res.ok)
    throw new CheckpointError(url, `could not be fetched (HTTP ${res.status} ${res.statusText}); ${FIX_FILES}`);
  // Static hosts often answer a missing file with the site's index page and a 200.
  if (res.headers.get('content-type')?.includes('text/html'))
    throw new CheckpointError(url, `is missing (the server sent an HTML page instead); ${FIX_FILES}`);
  return res;
}

/**
 * The weights as the manifest describes them: a file the library shipped in byte planes
 * (src/model/byte-planes.ts) is regrouped by its values' width, and must then hold the very bits
 * its card names.
 */
function plain(manifest: Manifest, file: ArrayBuffer, url: string): ArrayBuffer {
  if (!isBytePlanes(file)) return file;
  let weights: ArrayBuffer;
  try {
    weights = fromBytePlanes(file, BYTES_PER_VALUE[storedDtype(manifest)]);
  } catch (e) {
    throw new CheckpointError(url, `is a byte-planes file that does not fit the manifest (${(e as Error).message})`);
  }
  const digest = manifest.card.weightsDigest;
  if (typeof digest === 'string' && weightsDigest(weights) !== digest) {
    throw new CheckpointError(url, `holds weights with digest ${weightsDigest(weights)}, the manifest names ${digest}`);
  }
  return weights;
}
