// Vitest global setup for the browser tests: build the harness site and the plate page once, for
// every browser file, and serve the harness. Each file serves the page itself (some with headers
// of their own, such as a Content-Security-Policy).
import type { TestProject } from 'vitest/node';
import { buildPage } from '../browser/page-site';
import { buildSite, removeSite, serve } from '../browser/site';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The harness site (the worker hook's page, the custom element's page, broken checkpoints). */
    siteUrl: string;
    /** The plate page's production build (index.html, embed-host.html), to be served by the file. */
    pageDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const siteDir = await buildSite();
  const pageDir = await buildPage();
  const { url, server } = await serve(siteDir);
  project.provide('siteUrl', url);
  project.provide('pageDir', pageDir);
  return async () => {
    await new Promise((done) => server.close(done));
    removeSite(siteDir);
    removeSite(pageDir);
  };
}
