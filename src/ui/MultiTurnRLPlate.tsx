/**
 * Plate XXVI.3 as one React component: the printed text with the live figure inside it. The
 * standalone page and the custom element render it; the library exports it with its own
 * bundled files as the default assets (src/ui/lib.ts).
 */
import { PLATE } from '../plate/text';
import '../styles/plate.css';
import '../styles/figure.css';
import '../styles/charts.css';
import '../styles/episodes.css';
import '../styles/explain.css';
import { assetsAt, type PlateAssets } from './assets';
import { LiveFigure } from './LiveFigure';
import type { PlateOptions } from './options';
import { Plate } from './Plate';

export interface MultiTurnRLPlateProps extends PlateOptions {
  /**
   * A folder that holds `checkpoints/` and `reference-runs.json` (as public/ does), absolute or
   * relative to the document. Default: the library's own bundled files (the standalone page:
   * its own folder).
   */
  assetBase?: string;
  /** Notes about options that were ignored, shown in the figure's status line. */
  notes?: readonly string[];
}

/** The plate with its files given outright. */
export function PlateView({ assets, notes = [], ...options }: PlateOptions & { assets: PlateAssets; notes?: readonly string[] }) {
  return (
    <div className={`mtrl-plate${options.embed ? ' embed' : ''}`}>
      <Plate plate={PLATE} xrefPattern={options.xrefPattern} figure={<LiveFigure plate={PLATE} options={options} notes={notes} assets={assets} />} />
    </div>
  );
}

/** The standalone page's plate: its files in `assetBase`, by default the page's own folder. */
export function MultiTurnRLPlate({ assetBase, ...props }: MultiTurnRLPlateProps) {
  return <PlateView {...props} assets={assetsAt(assetBase ?? './')} />;
}
