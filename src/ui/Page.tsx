/** The standalone page: options from the URL, the plate, a footer unless embedded in an iframe. */
import type { RunConfig } from '../pipeline/settings';
import { PLATE } from '../plate/text';
import { pageUrlFor } from './figure/export';
import { MultiTurnRLPlate } from './MultiTurnRLPlate';
import { parseUrlOptions } from './options';
import { useEmbedHeight } from './useEmbedHeight';

const here = typeof location === 'undefined' ? 'http://localhost/' : location.href;
const { options, notes } = parseUrlOptions(typeof location === 'undefined' ? '' : location.search, here);
// This page reads its options from its own URL, so its URL with them sets a run up again.
const reproduceUrl = (config: RunConfig) => pageUrlFor(here, config);

export function Page() {
  useEmbedHeight(options.embed ?? false, PLATE.id);
  return (
    <div className={`page${options.embed ? ' embed' : ''}`}>
      <MultiTurnRLPlate {...options} notes={notes} reproduceUrl={reproduceUrl} />
      {!options.embed && (
        <footer className="page-footer mtrl-plate">
          The model on this page trains in your browser, in a background thread; nothing is sent anywhere.
        </footer>
      )}
    </div>
  );
}
