/** The start → end readout beside a chart, with the plate's own numbers under it. */
import { readoutText, type ReadoutValues } from './model';
import type { Tone } from './types';

interface Props {
  name: string;
  live: ReadoutValues;
  tone: Tone;
  plate: string;
  /** How values are written: percentages unless given (a loss). */
  format?: (v: number) => string;
  /** The dimmed earlier runs' readouts, e.g. "reliable run: 77% → 83%". */
  earlier: readonly { label: string; values: ReadoutValues; tone: Tone }[];
}

export function Readout({ name, live, tone, plate, earlier, format }: Props) {
  return (
    <div className="readout">
      <p className="readout-name">{name}</p>
      <p className={`readout-value tone-${tone}`} data-testid="readout">
        {readoutText(live, format)}
      </p>
      <p className="readout-span">{live.span}</p>
      {plate && <p className="readout-plate">plate: {plate}</p>}
      {earlier.map((e) => (
        <p key={e.label} className={`readout-earlier tone-${e.tone}`}>
          {e.label}: {readoutText(e.values, format)}
        </p>
      ))}
    </div>
  );
}
