/**
 * The live figure, from plain props: controls and status, the two GRPO charts with their
 * readouts, the legend, the episode viewer and the plate's numbers beside the reader's run.
 */
import type { PlateText } from '../../plate/types';
import type { TrainerState } from '../../trainer/trainer-state';
import type { AutoPauseReason } from '../useAutoPause';
import { Controls, type Settings } from './Controls';
import { EpisodeViewer } from './EpisodeViewer';
import { Legend } from './Legend';
import { LineChart } from './LineChart';
import { earlierRuns, markers, platePhrase, plateRows, position, readout, seriesOf } from './model';
import { NumbersTable } from './NumbersTable';
import { Readout } from './Readout';
import { referenceBand, type ReferenceState } from './reference';
import { StatusLine } from './StatusLine';
import { toneOf, type RunView } from './types';

export interface FigureProps {
  plate: PlateText;
  trainer: TrainerState;
  /** The live run as drawn (null once Reset cleared it). */
  run: RunView | null;
  previous: readonly RunView[];
  settings: Settings;
  totalSteps: number;
  reference: ReferenceState;
  notes: readonly string[];
  autoPaused: AutoPauseReason | null;
  onRun: () => void;
  onPause: () => void;
  onReset: () => void;
  onSettings: (s: Settings) => void;
  onRestart: () => void;
}

const CHARTS = [
  { id: 'heldOut', name: 'Held-out success', metric: 'heldOut' },
  { id: 'reward', name: 'Mean reward', metric: 'meanReward' },
] as const;

export function Figure(p: FigureProps) {
  const t = p.trainer;
  const steps = p.run?.config.steps ?? p.totalSteps;
  const faulty = p.run?.config.faulty ?? p.settings.faulty;
  const earlier = earlierRuns(p.run, p.previous);
  const calculators = [...new Set([...earlier.map((r) => r.config.faulty), faulty])];
  const ref = p.reference && 'runs' in p.reference ? p.reference.runs : null;
  const refLabel = ref ? `reference runs (precomputed)${ref.placeholder ? ' — placeholder curves, not real runs' : ''}` : null;
  const latestWithEpisodes = [...(p.run?.steps ?? [])].reverse().find((r) => r.episodes.length > 0) ?? null;
  const notes = p.reference && 'unavailable' in p.reference ? [...p.notes, p.reference.unavailable] : p.notes;

  return (
    <div className="figure-body">
      <Controls
        status={t.status}
        settings={p.settings}
        canReset={p.run !== null || p.previous.length > 0}
        onRun={p.onRun}
        onPause={p.onPause}
        onReset={p.onReset}
        onSettings={p.onSettings}
      />
      <StatusLine
        status={t.status}
        loadingMessage={t.loading ?? undefined}
        ready={t.ready}
        backend={t.backend}
        lastSwitch={t.lastSwitch}
        position={p.run ? position(p.run) : null}
        stepsPerSecond={t.stepsPerSecond}
        autoPaused={p.autoPaused}
        error={t.error?.message ?? null}
        notes={notes}
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
