/** The key to the charts' lines, band and marks. */
import type { Tone } from './types';

interface Props {
  live: Tone | null;
  earlier: readonly Tone[];
  referenceLabel: string | null;
}

const NAME: Record<Tone, string> = { reliable: 'reliable calculator', faulty: 'faulty calculator' };

function Swatch({ className }: { className: string }) {
  return (
    <svg className="swatch" aria-hidden="true" width="22" height="10" viewBox="0 0 22 10">
      {className.startsWith('band') ? <rect className="band" x="0" y="1" width="22" height="8" /> : className.startsWith('marker') ? <path className={className} d="M11,1L15,5L11,9L7,5Z" /> : <path className={className} d="M0,5H22" />}
    </svg>
  );
}

export function Legend({ live, earlier, referenceLabel }: Props) {
  return (
    <ul className="legend chart-legend">
      {live && (
        <li>
          <Swatch className={`series tone-${live}`} /> this run, {NAME[live]}
        </li>
      )}
      {earlier.map((t) => (
        <li key={t}>
          <Swatch className={`series tone-${t} dim`} /> earlier run, {NAME[t]}
        </li>
      ))}
      {referenceLabel && (
        <li>
          <Swatch className="band" /> {referenceLabel}
        </li>
      )}
      <li>
        <Swatch className="marker tone-reliable" /> the plate’s numbers
      </li>
    </ul>
  );
}
