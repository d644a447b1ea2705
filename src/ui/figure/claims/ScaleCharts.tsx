/**
 * The closing claims at the plate's scale, where the claims' section puts them: the charts once
 * the held-fixed agent's reference runs are in, and until then what they wait for. The charts and
 * the model they draw (ScaleChartsDrawn.tsx, rl/scale.ts) are a chunk of their own on the page,
 * asked for when that file arrives — as the section comes near — so a first visit does not carry
 * them (the first-visit budget, test/sites/frameworks.test.ts; scale-charts-load.ts).
 */
import { Suspense, type ReactNode } from 'react';
import { ChunkError } from '../../ChunkError';
import type { ReferenceState } from '../reference';
import { ScaleChartsDrawn as Drawn } from './scale-charts-load';

/** A line where the charts will be; `waiting`, it holds their place (figure.css), so the page below does not jump when they come. */
const Note = ({ children, waiting = false }: { children: ReactNode; waiting?: boolean }) => (
  <div className={waiting ? 'scale-charts waiting' : 'scale-charts'} data-testid="scale-charts">
    <p className="claim-key" data-testid="scale-missing">
      {children}
    </p>
  </div>
);

export function ScaleCharts({ reference }: { reference: ReferenceState }) {
  if (!reference) return <Note waiting>The scale charts come with the reference runs, on their way.</Note>;
  if (!('runs' in reference))
    return <Note>Without the reference runs there is nothing to fit the model to: the scale charts are left out.</Note>;
  return (
    <ChunkError
      said={(error) => (
        <Note>
          The scale charts could not be loaded ({error.message}); the claims’ table and charts above are all here.
          Reload the page to try again.
        </Note>
      )}
    >
      <Suspense fallback={<Note waiting>Drawing the scale charts…</Note>}>
        <Drawn runs={reference.runs} />
      </Suspense>
    </ChunkError>
  );
}
