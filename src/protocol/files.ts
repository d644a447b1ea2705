/**
 * The plate's files as a site serves them: when one does not load, the page and the worker say
 * which URL, why in HTTP's words, and the setting that fixes it, with the docs' section.
 */

/** Where docs/embedding.md says how to host the files; every failure's sentence ends with it. */
const HOSTING_DOCS = 'docs/embedding.md, “Hosting the files yourself”';

/** The fix for a file the worker loads (a backend's module, the .wasm, a checkpoint, the reference runs). */
export const FIX_FILES = `set asset-base (assetBase) to where your site serves a copy of the package’s plate folder (${HOSTING_DOCS})`;

/** The fix for the worker's own script. */
export const FIX_WORKER = `set worker-url (workerUrl) to where your site serves the folder’s training.worker.mjs, or asset-base (assetBase) to the folder (${HOSTING_DOCS})`;

/** Why the server does not serve `url` as a file, in words (its HTTP status), or null where it does. */
export async function notServed(url: string, fetchImpl: typeof fetch = fetch): Promise<string | null> {
  const res = await fetchImpl(url, { method: 'HEAD' }).catch((e: Error) => e);
  if (res instanceof Error) return `it could not be fetched: ${res.message}`;
  if (!res.ok) return `HTTP ${res.status}`;
  // Static hosts often answer a missing file with the site's index page and a 200.
  return res.headers.get('content-type')?.includes('text/html') ? 'the server sent an HTML page instead' : null;
}
