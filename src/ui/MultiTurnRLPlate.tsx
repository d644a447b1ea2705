/**
 * Plate XXVI.3 as one React component: the printed text with the live figure inside it. The
 * custom element renders it, the library exports it; the standalone page renders the same text
 * and figure with the figure's code loaded apart (src/ui/Page.tsx). Its files are by default the
 * ones that come with it (src/ui/bundled-assets.ts).
 */
import { LiveFigure } from './LiveFigure';
import { PlateWithFigure, type MultiTurnRLPlateProps } from './PlateWithFigure';

export type { MultiTurnRLPlateProps };

export function MultiTurnRLPlate(props: MultiTurnRLPlateProps) {
  return <PlateWithFigure Figure={LiveFigure} {...props} />;
}
