/**
 * An imported file's URL, absolute: the worker resolves a relative one against its own script,
 * not the page. Built bundles already give absolute URLs (Vite and webpack write them with
 * `new URL(…, import.meta.url)`); Vite's dev server gives root-relative ones. Resolved against
 * the document rather than `import.meta.url`, which a site's webpack would report as a
 * dependency it cannot follow.
 */
import { documentBase } from './options';

export const absolute = (url: string): string => new URL(url, documentBase()).href;
