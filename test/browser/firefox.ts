// Headless Firefox for the browser tests and the bench: Debian's firefox-esr driven by
// puppeteer-core over WebDriver BiDi (no browser download; puppeteer makes the temporary profile).
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** Every Firefox page's size (the window's). */
const FIREFOX_VIEWPORT = { width: 1280, height: 900 };

/**
 * JavaScript without its JIT and no WebAssembly, in a profile's prefs: ion, baselinejit and the
 * baseline interpreter off, and WebAssembly too (with it on, it runs at near-normal speed).
 */
export const FIREFOX_NO_JIT = {
  'javascript.options.ion': false,
  'javascript.options.baselinejit': false,
  'javascript.options.blinterp': false,
  'javascript.options.wasm': false,
};

/** prefs: a file's own, written to the profile's user.js (the JIT and WebAssembly switched off, say). */
export function launchFirefox(prefs: Record<string, boolean> = {}): Promise<Browser> {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    // The window's size, not page.setViewport: puppeteer's BiDi setViewport also sends
    // emulation.setScreenOrientationOverride, which Debian bookworm's Firefox ESR 140 does not know.
    defaultViewport: null,
    args: [`--width=${FIREFOX_VIEWPORT.width}`, `--height=${FIREFOX_VIEWPORT.height}`],
    // No updates, telemetry or remote settings: the machine's network is closed, and a run must not wait on it.
    extraPrefsFirefox: {
      'app.update.enabled': false,
      'browser.shell.checkDefaultBrowser': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'toolkit.telemetry.enabled': false,
      'network.captive-portal-service.enabled': false,
      'network.connectivity-service.enabled': false,
      ...prefs,
    },
  });
}

/** Records a Firefox page's console errors and uncaught exceptions, and its requests to anywhere but `origin`. */
export function watchFirefox(page: Page, origin: string): { errors: string[]; foreign: string[] } {
  const w = { errors: [] as string[], foreign: [] as string[] };
  page.on('console', (m) => m.type() === 'error' && w.errors.push(m.text()));
  page.on('pageerror', (e) => w.errors.push(String(e)));
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.protocol !== 'data:' && u.protocol !== 'blob:' && u.origin !== origin) w.foreign.push(r.url());
  });
  return w;
}
