/** The GRPO stage: held-out success and mean reward per step, with readouts, the plate's marks and the reference band. */
import type { PlateText } from '../../plate/types';
import { Legend } from './Legend';
import { LineChart } from './LineChart';
import { configLabel, earlierRuns, markers, platePhrase, plateRows, readout, seriesOf } from './model';
import { Readout } from './Readout';
import { referenceBand, type ReferenceRuns } from './reference';
import { toneOf, type RunView } from './types';

interface Props {
  plate: PlateText;
  run: RunView | null;
  previous: readonly RunView[];
  /** The calculator of the live run, or of the next one. */
  faulty: boolean;
  steps: number;
  totalSteps: number;
  reference: ReferenceRuns | null;
}

const CHARTS = [
  { id: 'heldOut', name: 'Held-out success', metric: 'heldOut' },
  { id: 'reward', name: 'Mean reward', metric: 'meanReward' },
] as const;

export function GrpoPanel({ plate, run, previous, faulty, steps, totalSteps, reference }: Props) {
  const earlier = earlierRuns(run, previous);
  const calculators = [...new Set([...earlier.map((r) => r.config.faulty), faulty])];
  const refLabel = reference ? `reference runs (precomputed)${reference.placeholder ? ' — placeholder curves, not real runs' : ''}` : null;
  return (
    <section className="stage-panel stage-grpo" aria-label="GRPO">
      <h3 className="stage-title">GRPO</h3>
      <Legend entries={[...earlier, ...(run ? [run] : [])].map((r) => { const s = seriesOf(r, 'heldOut', r !== run); return { label: s.label, tone: s.tone, dash: s.dash, dim: s.dim }; })} referenceLabel={refLabel} />
      <div className="charts">
        {CHARTS.map((c) => {
          const live = run ? seriesOf(run, c.id, false) : null;
          return (
            <div key={c.id} className={`chart-row chart-${c.id}`}>
              <LineChart
                name={c.name}
                frame={Math.max(steps, totalSteps)}
                steps={steps}
                series={[...earlier.map((r) => seriesOf(r, c.id, true)), ...(live ? [live] : [])]}
                live={live}
                band={reference ? referenceBand(reference, faulty, c.metric) : undefined}
                markers={markers(plate.numbers.rows, c.id, calculators)}
              />
              <Readout
                name={c.name}
                live={readout(run?.steps ?? [], c.id)}
                tone={toneOf(faulty)}
                plate={platePhrase(plateRows(plate.numbers.rows, c.id, faulty))}
                earlier={earlier.map((r) => ({ label: `earlier run (${configLabel(r.config)})`, values: readout(r.steps, c.id), tone: toneOf(r.config.faulty) }))}
              />
            </div>
          );
        })}
      </div>
    </section>
  );
}
