/**
 * The shapes of the plate's text. A paragraph is a list of inline pieces: plain strings, and
 * pieces that carry a role (a cross-reference to a sibling plate, a glossary term, a link).
 * Joining the pieces' text gives back the paragraph exactly as the editors wrote it.
 */
import type { CalculatorName } from '../env/calculator';

export type TermId = 'multi-turn-rl' | 'outcome-reward' | 'group-relative-advantage' | 'observation-masking';

/** A cross-reference to another plate or volume; `ref` fills the site's URL pattern. */
interface RefPiece {
  kind: 'ref';
  /** e.g. "XIX.5" or "XVII". */
  ref: string;
  text: string;
}

/** Words in the text that name a glossary term; hovering or focusing shows its definition. */
interface TermPiece {
  kind: 'term';
  term: TermId;
  text: string;
}

interface LinkPiece {
  kind: 'link';
  href: string;
  text: string;
}

export type Inline = string | RefPiece | TermPiece | LinkPiece;
export type Paragraph = readonly Inline[];

export interface Term {
  id: TermId;
  name: string;
  definition: string;
}

export type ChartId = 'heldOut' | 'reward';

/** One row of the plate's stated numbers, with where it sits on the figure's charts. */
export interface StatedNumber {
  readout: string;
  plate: string;
  chart: ChartId;
  calculator: CalculatorName;
  step: number;
  /** As a fraction, for the chart marker. */
  value: number;
}

export interface PlateText {
  /** The plate's place in the volume, e.g. "XXVI.3"; also the `plate` field of embed messages. */
  id: string;
  header: { volume: string; position: string; keywords: readonly string[] };
  title: string;
  lede: string;
  body: readonly Paragraph[];
  caption: string;
  whatYouWillLearn: string;
  workshop: { heading: string; text: Paragraph };
  longerEpisode: { heading: string; paragraphs: readonly Paragraph[] };
  terms: { heading: string; items: readonly Term[] };
  takeaway: { heading: string; text: Paragraph };
  sources: { heading: string; items: readonly Paragraph[] };
  numbers: { heading: string; rows: readonly StatedNumber[] };
}
