/**
 * The plate's text with a live figure inside it, the figure component given: the library's
 * MultiTurnRLPlate gives LiveFigure itself, the standalone page a copy loaded after the text
 * (src/ui/Page.tsx). Its props are checked here, as the page's URL options are; a bad one is named
 * in the status line.
 */
import { useMemo, type ComponentType } from 'react';
import { PLATE } from '../plate/text';
import type { LinkConfig } from './figure/export/export';
import '../styles/plate.css';
import '../styles/figure.css';
import '../styles/charts.css';
import '../styles/episodes.css';
import '../styles/explain.css';
import { assetsAt } from './assets';
import { BUNDLED } from './bundled-assets';
import type { LiveFigureProps } from './LiveFigure';
import { checkOptions, documentBase, type PlateOptions } from './options';
import { Plate } from './Plate';

export interface MultiTurnRLPlateProps extends PlateOptions {
  /** Sentences shown in the status line (the standalone page passes the notes on its URL options). */
  notes?: readonly string[];
  /**
   * A link that sets `config` up again in the page that shows this plate. Without one the plate
   * offers none: it cannot know how its host page is set up (the standalone page passes its own).
   */
  reproduceUrl?: (config: LinkConfig) => string;
}

export function PlateWithFigure({
  Figure,
  notes = [],
  reproduceUrl,
  ...props
}: MultiTurnRLPlateProps & { Figure: ComponentType<LiveFigureProps> }) {
  const base = documentBase();
  const checked = checkOptions(props, 'prop', base);
  const { options } = checked;
  const assets = useMemo(
    () => (options.assetBase === undefined ? BUNDLED : assetsAt(options.assetBase, base, BUNDLED)),
    [options.assetBase, base],
  );
  const shown = [...notes, ...checked.notes];
  return (
    <div className={`mtrl-plate${options.embed ? ' embed' : ''}`}>
      <Plate
        plate={PLATE}
        xrefPattern={options.xrefPattern}
        figure={
          <Figure
            plate={PLATE}
            options={options}
            notes={shown}
            assets={assets}
            reproduceUrl={typeof reproduceUrl === 'function' ? reproduceUrl : undefined}
          />
        }
      />
    </div>
  );
}
