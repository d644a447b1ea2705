/** The standalone page: options from the URL, the plate, a footer unless embedded in an iframe. */
import { PLATE } from '../plate/text';
import { MultiTurnRLPlate } from './MultiTurnRLPlate';
import { parseUrlOptions } from './options';
import { useEmbedHeight } from './useEmbedHeight';

const { options, notes } = parseUrlOptions(typeof location === 'undefined' ? '' : location.search);

export function Page() {
  useEmbedHeight(options.embed ?? false, PLATE.id);
  return (
    <div className={`page${options.embed ? ' embed' : ''}`}>
      <MultiTurnRLPlate {...options} notes={notes} />
      {!options.embed && (
        <footer className="page-footer mtrl-plate">
          The model on this page trains in your browser, in a background thread; nothing is sent anywhere.
        </footer>
      )}
    </div>
  );
}
