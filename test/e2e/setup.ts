// Vitest global setup for the browser tests: build the harness site once and serve it.
import type { TestProject } from 'vitest/node';
import { buildSite, removeSite, serve } from '../../scripts/lib/browser/site';

declare module 'vitest' {
  export interface ProvidedContext {
    siteUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await buildSite();
  const { url, server } = await serve(dir);
  project.provide('siteUrl', url);
  return async () => {
    await new Promise((done) => server.close(done));
    removeSite(dir);
  };
}
