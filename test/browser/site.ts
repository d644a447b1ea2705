// The browser tests' (and the bench's) site: builds the harness page with the project's Vite config (so the worker
// and its .wasm files are bundled exactly as for the plate), writes broken checkpoints beside
// it, and serves the folder under a sub-path, as a static host would.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { build } from 'vite';
import { fromFloat16 } from '../../src/model/float16';

const ROOT = resolve(import.meta.dirname, '../..');
/** Served under a sub-path: nothing may assume the site sits at the host's root. */
const SUB_PATH = '/some/sub/path/';
const AGENT = join(ROOT, 'public/checkpoints/agent');
/** index.html: the worker hook's harness; element.html: the custom element, from the source. */
const HARNESS = join(ROOT, 'test/browser/harness');

/** `minify: false` keeps functions' names (for a profile). */
export async function buildSite(opts: { minify?: boolean } = {}): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'plate-e2e-'));
  await build({
    configFile: join(ROOT, 'vite.config.ts'),
    root: HARNESS,
    publicDir: join(ROOT, 'public'),
    logLevel: 'error',
    // public/ copied: the worker tests load checkpoints by their folders, as assetBase does.
    build: {
      outDir,
      emptyOutDir: true,
      copyPublicDir: true,
      ...(opts.minify === false && { minify: false }),
      rolldownOptions: { input: { index: join(HARNESS, 'index.html'), element: join(HARNESS, 'element.html') } },
    },
  });
  writeBrokenCheckpoints(join(outDir, 'broken'));
  return outDir;
}

export const removeSite = (dir: string): void => rmSync(dir, { recursive: true, force: true });

/** Stops serving each site (serve) and removes its folder: the benches' clean-up. */
export async function stopServing(...sites: { server: Server; dir: string }[]): Promise<void> {
  await Promise.all(sites.map(({ server }) => new Promise((ok) => server.close(ok))));
  for (const { dir } of sites) removeSite(dir);
}

/** broken/<name>/: each folder is the agent checkpoint with one thing wrong. */
function writeBrokenCheckpoints(dir: string): void {
  const manifest = readFileSync(join(AGENT, 'manifest.json'), 'utf8');
  const weights = readFileSync(join(AGENT, 'weights.bin'));
  const folder = (name: string, files: Record<string, string | Uint8Array>) => {
    mkdirSync(join(dir, name), { recursive: true });
    for (const [file, body] of Object.entries(files)) writeFileSync(join(dir, name, file), body);
  };
  folder('truncated', { 'manifest.json': manifest, 'weights.bin': weights.subarray(0, 1000) });
  folder('bad-json', { 'manifest.json': manifest.slice(0, 200), 'weights.bin': weights });
  const m = JSON.parse(manifest) as { weights: { name: string; shape: number[]; dtype: string }[] };
  m.weights.find((w) => w.name === 'wte')!.shape = [16, 32];
  folder('wrong-shape', { 'manifest.json': JSON.stringify(m), 'weights.bin': weights });
  folder('no-weights', { 'manifest.json': manifest });
  folder('overflowing', overflowing(JSON.parse(manifest) as typeof m, weights));
}

/**
 * The agent with the final layer norm's gain at 3e38: finite weights whose logits overflow to
 * ±Inf, so the loss is NaN. Float16 tops out at 65504, where the layer norms keep every logit
 * finite, so this checkpoint holds float32 weights, which the format still reads.
 */
function overflowing(
  m: { weights: { name: string; shape: number[]; dtype: string }[] },
  weights: Buffer,
): Record<string, string | Uint8Array> {
  const floats = fromFloat16(
    new Uint16Array(weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength)),
  );
  let offset = 0;
  for (const w of m.weights) {
    const size = w.shape.reduce((a, b) => a * b, 1);
    if (w.name === 'lnf.g') floats.fill(3e38, offset, offset + size);
    offset += size;
    w.dtype = 'float32';
  }
  return { 'manifest.json': JSON.stringify(m), 'weights.bin': new Uint8Array(floats.buffer) };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.bin': 'application/octet-stream',
  '.map': 'application/json',
};

/**
 * Serves `dir` at http://127.0.0.1:<free port>/some/sub/path/ (or at `subPath`: a site whose pages
 * name their files from the host's root), HTML with `htmlHeaders` (e.g. a CSP).
 */
export async function serve(
  dir: string,
  htmlHeaders: Record<string, string> = {},
  subPath = SUB_PATH,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (!path.startsWith(subPath)) return void res.writeHead(404).end('not found');
    const rel = normalize(path.slice(subPath.length) || 'index.html');
    if (rel.startsWith('..')) return void res.writeHead(403).end();
    let body: Buffer;
    try {
      body = readFileSync(join(dir, rel.endsWith('/') ? rel + 'index.html' : rel));
    } catch {
      return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
    const type = TYPES[extname(rel)] ?? (rel.endsWith('/') ? TYPES['.html']! : 'application/octet-stream');
    res
      .writeHead(200, { 'content-type': type, ...(type.startsWith('text/html') ? htmlHeaders : {}) })
      .end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}${subPath}`, server };
}
