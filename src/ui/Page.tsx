/**
 * The standalone page: options from the URL, the plate, a footer unless embedded in an iframe.
 * The figure's code (d3, the charts, the worker's client) is a chunk of its own, loaded after the
 * text: on a phone-class CPU, evaluating all of the page's code in one go held the main thread
 * 400–560 ms (`npm run bench -- phone`).
 */
import { lazy, Suspense } from 'react';
import { ChunkError } from './ChunkError';
import { PLATE } from '../plate/text';
import { pageUrlFor, type LinkConfig } from './figure/export/export';
import type { LiveFigureProps } from './LiveFigure';
import { parseUrlOptions } from './options';
import { PlateWithFigure } from './PlateWithFigure';
import { useEmbedHeight } from './useEmbedHeight';

const here = typeof location === 'undefined' ? 'http://localhost/' : location.href;
const { options, notes } = parseUrlOptions(typeof location === 'undefined' ? '' : location.search, here);
// This page reads its options from its own URL, so its URL with them sets a run up again.
const reproduceUrl = (config: LinkConfig) => pageUrlFor(here, config);

const LazyFigure = lazy(() => import('./LiveFigure').then((m) => ({ default: m.LiveFigure })));

/** The live figure once its chunk has arrived; until then a line, and if it cannot arrive, why. */
function LoadedFigure(props: LiveFigureProps) {
  return (
    <ChunkError
      said={(error) => (
        <p className="figure-loading" role="alert">
          The live figure could not be loaded ({error.message}). The plate’s text is all here; reload the page to try
          again.
        </p>
      )}
    >
      <Suspense fallback={<p className="figure-loading">Loading the live figure…</p>}>
        <LazyFigure {...props} />
      </Suspense>
    </ChunkError>
  );
}

export function Page() {
  useEmbedHeight(options.embed ?? false, PLATE.id);
  return (
    <div className={`page${options.embed ? ' embed' : ''}`}>
      <PlateWithFigure Figure={LoadedFigure} {...options} notes={notes} reproduceUrl={reproduceUrl} />
      {!options.embed && (
        <footer className="page-footer mtrl-plate">
          The model on this page trains in your browser, in a background thread; nothing is sent anywhere.
        </footer>
      )}
    </div>
  );
}
