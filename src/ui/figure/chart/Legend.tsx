/** The key to the charts' lines, band and marks: each run by its configuration. */
import type { CalculatorName } from '../../../env/calculator';
import type { Dash } from '../types';

interface LegendEntry {
  label: string;
  tone: CalculatorName;
  dash: Dash;
  dim: boolean;
}

interface Props {
  entries: readonly LegendEntry[];
  referenceLabel: string | null;
  /** The live run's true success on the reward's chart; exact: the grader is the plate's, so the two lines coincide. */
  truth?: { label: string; exact: boolean } | null;
  /** This run's seed, as curves.ts's seedPhrase says it. */
  seed?: string | null;
  /** The charts mark the plate's numbers (its agent, on one-call sums): else the legend names none. */
  plateMarks: boolean;
}

function Swatch({ className }: { className: string }) {
  return (
    <svg className="swatch" aria-hidden="true" width="22" height="10" viewBox="0 0 22 10">
      {className.startsWith('band') ? (
        <rect className="band" x="0" y="1" width="22" height="8" />
      ) : className.startsWith('marker') ? (
        <path className={className} d="M11,1L15,5L11,9L7,5Z" />
      ) : (
        <path className={className} d="M0,5H22" />
      )}
    </svg>
  );
}

export function Legend({ entries, referenceLabel, truth, seed, plateMarks }: Props) {
  return (
    <ul className="legend chart-legend">
      {entries.map((e) => (
        <li key={e.label}>
          <Swatch className={`series tone-${e.tone} dash-${e.dash}${e.dim ? ' dim' : ''}`} /> {e.label}
        </li>
      ))}
      {truth && (
        <li className="legend-truth">
          <svg className="swatch" aria-hidden="true" width="22" height="10" viewBox="0 0 22 10">
            <g className="companion">
              <path className="series companion-line" d="M0,5H22" />
              <rect x="8.5" y="2.5" width="5" height="5" />
            </g>
          </svg>{' '}
          {truth.label} on the reward’s chart: the share of sampled answers that are the true sum
          {truth.exact ? ' (with the exact grader, the reward itself)' : ' (what an exact grader would have paid)'}
        </li>
      )}
      {seed && <li className="legend-seed">this run’s {seed}</li>}
      {referenceLabel && (
        <li>
          <Swatch className="band" /> {referenceLabel}
        </li>
      )}
      {plateMarks && (
        <li>
          <Swatch className="marker tone-reliable" /> the plate’s numbers
        </li>
      )}
    </ul>
  );
}
