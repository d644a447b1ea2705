// npm run screenshot -- [--out FILE] [--steps N] [--height PX]
// The README's picture, docs/screenshot.png (or FILE): the standalone page built with the
// project's Vite config and served under a sub-path, as the browser tests do
// (test/browser/page-site.ts, site.ts); the default run (seed 4, --steps GRPO steps, 40 unless
// said) trained on WASM in Debian's headless Chromium through playwright-core (CHROMIUM_PATH for
// another); then, once the status says Finished, the figure's top --height px (1000 unless said)
// at a 1280 px viewport. WASM, forced, so that the curves are the reference run's on any machine.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { intOption, main, parseOptions } from '../src/node/args';
import { launch } from '../test/browser/chromium';
import { buildPage } from '../test/browser/page-site';
import { serve, stopServing } from '../test/browser/site';

const { values: a } = parseOptions({
  options: {
    out: { type: 'string', default: 'docs/screenshot.png' },
    steps: { type: 'string' },
    height: { type: 'string' },
  },
});
const steps = intOption('steps', a.steps, 40, 1);
const height = intOption('height', a.height, 1000, 100);
const out = resolve(a.out);
const WIDTH = 1280;

await main(async () => {
  console.log('building the page…');
  const dir = await buildPage();
  const site = { ...(await serve(dir)), dir };
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: WIDTH, height } });
    await page.goto(`${site.url}index.html?backend=wasm&steps=${steps}&autorun=1`);
    // The plate trains only while its figure is in view (src/ui/useHolds.ts).
    const figure = page.locator('.plate-figure');
    await figure.scrollIntoViewIfNeeded({ timeout: 60_000 });
    console.log(`training ${steps} GRPO steps…`);
    await page.waitForFunction(() => document.querySelector('.status-word')?.textContent === 'Finished', undefined, {
      timeout: 300_000,
      polling: 100,
    });
    const box = (await figure.boundingBox())!;
    const top = box.y + (await page.evaluate(() => scrollY));
    mkdirSync(dirname(out), { recursive: true });
    await page.screenshot({ path: out, fullPage: true, clip: { x: 0, y: top, width: WIDTH, height } });
    const said = await page.locator('[data-testid="status-step"]').innerText();
    console.log(`wrote ${out}: ${WIDTH}×${height} px, ${said}`);
  } finally {
    await browser.close();
    await stopServing(site);
  }
});
