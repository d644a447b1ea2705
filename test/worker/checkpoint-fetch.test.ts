import { describe, expect, it } from 'vitest';
import { CheckpointError } from '../../src/model/checkpoint';
import { fetchCheckpoint } from '../../src/worker/checkpoint-fetch';
import { FIX_FILES } from '../../src/protocol/files';

const BASE = 'https://example.org/plate/checkpoints/agent/';

/** A server that answers each file name with the given response (404 otherwise). */
function server(files: Record<string, () => Response>): typeof fetch {
  return async (url) => {
    const name = String(url).slice(BASE.length);
    return files[name]?.() ?? new Response('not found', { status: 404 });
  };
}

async function failure(fetchImpl: typeof fetch): Promise<CheckpointError> {
  const e = await fetchCheckpoint(BASE, fetchImpl).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(CheckpointError);
  return e as CheckpointError;
}

describe('fetchCheckpoint', () => {
  it('names the manifest URL when the folder is missing', async () => {
    const e = await failure(server({}));
    expect(e.message).toBe(`${BASE}manifest.json: is missing (HTTP 404); ${FIX_FILES}`);
  });

  it('names the file when the server answers with an HTML page instead', async () => {
    const html = () => new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } });
    const e = await failure(server({ 'manifest.json': html }));
    expect(e.file).toBe(`${BASE}manifest.json`);
    expect(e.message).toMatch(/HTML page/);
  });

  it('names the file on a server error and on a network failure', async () => {
    expect((await failure(server({ 'manifest.json': () => new Response('', { status: 500 }) }))).message).toMatch(
      /manifest\.json: could not be fetched \(HTTP 500/,
    );
    const offline: typeof fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    expect((await failure(offline)).message).toBe(
      `${BASE}manifest.json: could not be fetched (Failed to fetch); ${FIX_FILES}`,
    );
  });

  it('passes bad JSON to the manifest parser, which names the file', async () => {
    const e = await failure(server({ 'manifest.json': () => new Response('{"format":') }));
    expect(e.message).toMatch(/manifest\.json: is not valid JSON/);
  });

  it('adds the trailing slash a folder URL needs', async () => {
    const seen: string[] = [];
    await fetchCheckpoint(
      BASE.slice(0, -1),
      async (url) => (seen.push(String(url)), new Response('', { status: 404 })),
    ).catch(() => {});
    expect(seen).toEqual([`${BASE}manifest.json`]);
  });
});
