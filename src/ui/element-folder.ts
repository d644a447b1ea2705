/**
 * The entry of the package's self-contained folder (dist-lib/plate-<version>/plate-multi-turn-rl.js),
 * for a page with no bundler: React included, the stylesheet linked from beside this script, and
 * <plate-multi-turn-rl> defined as the script loads. Everything else it needs is in the folder.
 */
import { FOLDER } from './assets';
import { definePlateElement } from './element';

// Not a literal: no bundler should take this for a file of its own to emit.
const sheet = new URL(FOLDER.stylesheet, import.meta.url).href;
if (
  typeof document !== 'undefined' &&
  ![...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].some((l) => l.href === sheet)
) {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = sheet;
  document.head.append(link);
}
definePlateElement();
