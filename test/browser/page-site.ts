// The plate page's own build for its browser tests: the real index.html with the project's Vite
// config, plus a host page that embeds it in an iframe and records the messages it posts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';

const ROOT = resolve(import.meta.dirname, '../..');

const EMBED_HOST = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Embedding host</title><link rel="icon" href="data:,"></head>
<body style="margin:0">
<script>
  window.plateMessages = [];
  addEventListener('message', (e) => window.plateMessages.push(e.data));
</script>
<iframe id="plate" src="index.html?embed=1" title="Plate XXVI.3" style="width:100%;border:0"></iframe>
</body></html>
`;

/** `minify: false` keeps functions' names (for a profile). */
export async function buildPage(opts: { minify?: boolean } = {}): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'plate-page-'));
  await build({
    configFile: join(ROOT, 'vite.config.ts'),
    root: ROOT,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, ...(opts.minify === false && { minify: false }) },
  });
  writeFileSync(join(outDir, 'embed-host.html'), EMBED_HOST);
  return outDir;
}
