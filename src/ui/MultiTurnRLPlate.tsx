/**
 * Plate XXVI.3 as one React component: the printed text with the live figure inside it.
 * The library exports this; the standalone page and the custom element render it too.
 */
import { PLATE } from '../plate/text';
import '../styles/plate.css';
import '../styles/figure.css';
import '../styles/charts.css';
import '../styles/episodes.css';
import { LiveFigure } from './LiveFigure';
import type { PlateOptions } from './options';
import { Plate } from './Plate';

export interface MultiTurnRLPlateProps extends PlateOptions {
  /**
   * The folder that holds `checkpoints/` and `reference-runs.json`, absolute or relative to
   * the document. Default: the document's base URL (the standalone page's own folder).
   */
  assetBase?: string;
  /** Notes about options that were ignored, shown in the figure's status line. */
  notes?: readonly string[];
}

export function MultiTurnRLPlate({ assetBase, notes = [], ...options }: MultiTurnRLPlateProps) {
  const base = new URL(assetBase ?? './', document.baseURI);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return (
    <div className={`mtrl-plate${options.embed ? ' embed' : ''}`}>
      <Plate plate={PLATE} xrefPattern={options.xrefPattern} figure={<LiveFigure plate={PLATE} options={options} notes={notes} assetBase={base.href} />} />
    </div>
  );
}
