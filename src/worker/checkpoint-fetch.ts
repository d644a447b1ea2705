// Reading a checkpoint folder over HTTP, as scripts/checkpoint-fs.ts reads one from disk. Every
// failure is a CheckpointError naming the file's URL; decoding and validation live in model/.
import { CheckpointError, MANIFEST_FILE, parseManifest, type Manifest } from '../model/checkpoint';

export interface FetchedCheckpoint {
  manifest: Manifest;
  weights: ArrayBuffer;
  /** The folder's absolute URL, ending in '/': prefixes file names in later errors. */
  where: string;
}

/** folderUrl: absolute, or relative to the worker's own location. */
export async function fetchCheckpoint(folderUrl: string, fetchImpl: typeof fetch = fetch): Promise<FetchedCheckpoint> {
  const where = new URL(folderUrl.endsWith('/') ? folderUrl : folderUrl + '/', globalThis.location?.href).href;
  const manifestUrl = new URL(MANIFEST_FILE, where).href;
  const manifest = parseManifest(await (await get(manifestUrl, fetchImpl)).text(), where);
  const weightsUrl = new URL(manifest.weightsFile, where).href;
  const weights = await (await get(weightsUrl, fetchImpl)).arrayBuffer();
  return { manifest, weights, where };
}

async function get(url: string, fetchImpl: typeof fetch): Promise<Response> {
  let res: Response;
  try {
    res = await fetchImpl(url);
  } catch (e) {
    throw new CheckpointError(url, `could not be fetched (${(e as Error).message})`);
  }
  if (res.status === 404) throw new CheckpointError(url, 'is missing (HTTP 404)');
  if (!res.ok) throw new CheckpointError(url, `could not be fetched (HTTP ${res.status} ${res.statusText})`);
  // Static hosts often answer a missing file with the site's index page and a 200.
  if (res.headers.get('content-type')?.includes('text/html')) throw new CheckpointError(url, 'is missing (the server sent an HTML page instead)');
  return res;
}
