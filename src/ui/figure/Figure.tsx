/**
 * The live figure, from plain props: controls and status, the two charts with their readouts,
 * the legend, the episode viewer and the plate's numbers beside the reader's run.
 */
import type { PlateText } from '../../plate/types';
import { Controls } from './Controls';
import { EpisodeViewer } from './EpisodeViewer';
import { Legend } from './Legend';
import { LineChart } from './LineChart';
import { earlierRuns, markers, platePhrase, plateRows, readout, seriesOf } from './model';
import { NumbersTable } from './NumbersTable';
import { Readout } from './Readout';
import { referenceBand, type ReferenceState } from './reference';
import { StatusLine } from './StatusLine';
import { toneOf, type ReadyInfo, type RunView, type TrainerStatus } from './types';

export interface FigureProps {
  plate: PlateText;
  status: TrainerStatus;
  loadingMessage?: string;
  ready: ReadyInfo | null;
  run: RunView | null;
  previous: readonly RunView[];
  error: string | null;
  stepsPerSecond: number | null;
  /** The calculator the next run uses (the switch's state). */
  faulty: boolean;
  totalSteps: number;
  reference: ReferenceState;
  notes: readonly string[];
  onRun: () => void;
  onPause: () => void;
  onReset: () => void;
  onFaulty: (faulty: boolean) => void;
  onRestart: () => void;
}

const CHARTS = [
  { id: 'heldOut', name: 'Held-out success', metric: 'heldOut' },
  { id: 'reward', name: 'Mean reward', metric: 'meanReward' },
] as const;

export function Figure(p: FigureProps) {
  const steps = p.run?.config.steps ?? p.totalSteps;
  const faulty = p.run?.config.faulty ?? p.faulty;
  const earlier = earlierRuns(p.run, p.previous);
  const calculators = [...new Set([...earlier.map((r) => r.config.faulty), faulty])];
  const ref = p.reference && 'runs' in p.reference ? p.reference.runs : null;
  const refLabel = ref ? `reference runs (precomputed)${ref.placeholder ? ' — placeholder curves, not real runs' : ''}` : null;
  const last = p.run?.steps.at(-1) ?? null;
  const latestWithEpisodes = [...(p.run?.steps ?? [])].reverse().find((r) => r.episodes.length > 0) ?? null;

  return (
    <div className="figure-body">
      <Controls status={p.status} faulty={p.faulty} onRun={p.onRun} onPause={p.onPause} onReset={p.onReset} onFaulty={p.onFaulty} />
      <StatusLine
        status={p.status}
        loadingMessage={p.loadingMessage}
        ready={p.ready}
        step={last?.step ?? null}
        steps={steps}
        stepsPerSecond={p.stepsPerSecond}
        error={p.error ?? (p.reference && 'error' in p.reference ? p.reference.error : null)}
        notes={p.notes}
        onRestart={p.onRestart}
      />
      <Legend live={p.run ? toneOf(faulty) : null} earlier={earlier.map((r) => toneOf(r.config.faulty))} referenceLabel={refLabel} />
      <div className="charts">
        {CHARTS.map((c) => {
          const live = p.run ? seriesOf(p.run, c.id, false) : null;
          return (
            <div key={c.id} className={`chart-row chart-${c.id}`}>
              <LineChart
                name={c.name}
                frame={Math.max(steps, p.totalSteps)}
                steps={steps}
                series={[...earlier.map((r) => seriesOf(r, c.id, true)), ...(live ? [live] : [])]}
                live={live}
                band={ref ? referenceBand(ref, faulty, c.metric) : undefined}
                markers={markers(p.plate.numbers.rows, c.id, calculators)}
              />
              <Readout
                name={c.name}
                live={readout(p.run?.steps ?? [], c.id)}
                tone={toneOf(faulty)}
                plate={platePhrase(plateRows(p.plate.numbers.rows, c.id, faulty))}
                earlier={earlier.map((r) => ({ label: `earlier ${r.config.faulty ? 'faulty' : 'reliable'} run`, values: readout(r.steps, c.id), tone: toneOf(r.config.faulty) }))}
              />
            </div>
          );
        })}
      </div>
      <EpisodeViewer record={latestWithEpisodes} />
      <NumbersTable heading={p.plate.numbers.heading} rows={p.plate.numbers.rows} runs={[...p.previous.filter((r) => r.runId !== p.run?.runId), ...(p.run ? [p.run] : [])]} />
    </div>
  );
}
