// Reading a checkpoint folder over HTTP, as scripts/checkpoint-fs.ts reads one from disk, and
// checking it. Every failure is a CheckpointError naming the file's URL; the checks live in model/.
import { CheckpointError, checkWeights, MANIFEST_FILE, parseManifest, type CheckpointFiles } from '../model/checkpoint';

/** folderUrl: absolute, or relative to the worker's own location. */
export async function fetchCheckpoint(folderUrl: string, fetchImpl: typeof fetch = fetch): Promise<CheckpointFiles> {
  const where = new URL(folderUrl.endsWith('/') ? folderUrl : folderUrl + '/', globalThis.location?.href).href;
  const manifestUrl = new URL(MANIFEST_FILE, where).href;
  const manifest = parseManifest(await (await get(manifestUrl, fetchImpl)).text(), where);
  const weightsUrl = new URL(manifest.weightsFile, where).href;
  const weights = await (await get(weightsUrl, fetchImpl)).arrayBuffer();
  checkWeights(manifest, weights, where); // now, so a broken file is named at load, not at the first run
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
