/** The start → end readout beside a chart, with the plate's own numbers under it. */
import { readoutText, type ReadoutValues } from '../curves';
import type { CalculatorName } from '../../../env/calculator';

interface Props {
  name: string;
  live: ReadoutValues;
  tone: CalculatorName;
  plate: string;
  /** How values are written: percentages unless given (a loss). */
  format?: (v: number) => string;
  /** The dimmed earlier runs' readouts, e.g. "reliable run: 77% → 83%". */
  earlier: readonly { label: string; values: ReadoutValues; tone: CalculatorName }[];
  /** The live run's second curve on the same chart, e.g. "true success: 67% → 20%". */
  companion?: { label: string; values: ReadoutValues } | null;
  /** Why the live run differs from the plate's numbers, where it does (curves.ts's heldOutGap). */
  why?: string | null;
}

export function Readout({ name, live, tone, plate, earlier, format, companion, why }: Props) {
  return (
    <div className="readout">
      <p className="readout-name">{name}</p>
      <p className={`readout-value tone-${tone}`} data-testid="readout">
        {readoutText(live, format)}
      </p>
      <p className="readout-span">{live.span}</p>
      {companion && (
        <p className="readout-companion" data-testid="readout-companion">
          {companion.label}: {readoutText(companion.values, format)}
        </p>
      )}
      {plate && <p className="readout-plate">plate: {plate}</p>}
      {why && (
        <p className="readout-why" data-testid="readout-why">
          {why}
        </p>
      )}
      {earlier.map((e) => (
        <p key={e.label} className={`readout-earlier tone-${e.tone}`}>
          {e.label}: {readoutText(e.values, format)}
        </p>
      ))}
    </div>
  );
}
