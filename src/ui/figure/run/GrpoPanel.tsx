/**
 * The GRPO stage: held-out success and mean reward per step, with readouts, the plate's marks
 * and the reference band for the reader's configuration, and notes on any setting that is not
 * the plate's (each linking to the part its control lives in). Its chart rows serve the part
 * that shows what the sampled episodes do (behaviour/EpisodeBehaviour.tsx) too.
 */
import { memo, useId } from 'react';
import { GRPO } from '../../../config';
import { isPlateWorld, WORLDS } from '../../../env/world';
import type { PlateText } from '../../../plate/types';
import { settingsLabel, type RunSettings } from '../../../pipeline/settings';
import { Legend } from '../chart/Legend';
import { PERCENT, type YAxis } from '../chart/axes';
import { LineChart } from '../chart/LineChart';
import {
  belowStart,
  earlierRuns,
  heldOutGap,
  seedPhrase,
  markers,
  platePhrase,
  plateRows,
  readout,
  seriesOf,
  TRUTH_LABEL,
  truthOf,
  type GrpoChart,
} from '../curves';
import { firstDipWhy } from './first-dip';
import { settingNotes } from './notes';
import { Readout } from './Readout';
import { SettingsLinks, WithPartLinks } from '../parts/Part';
import { referenceBand, runsLike, type ReferenceMetric, type ReferenceRun, type ReferenceRuns } from '../reference';
import { sameGrpoSide, toneOf, type BandPoint, type RunView } from '../types';

export interface GrpoProps {
  plate: PlateText;
  run: RunView | null;
  previous: readonly RunView[];
  /** The settings of the live run, or of the next one. */
  config: RunSettings;
  steps: number;
  totalSteps: number;
  reference: ReferenceRuns | null;
}

export interface GrpoChartSpec {
  id: GrpoChart;
  name: string;
  metric: ReferenceMetric;
  /** The plate states numbers for these. */
  plate: boolean;
  /** Beside the chart: what it counts, for the settings shown, and what to look for. */
  caption: (config: RunSettings) => string;
}

export const SAMPLED = GRPO.sumsPerStep * GRPO.episodesPerSum;

const CHARTS: readonly GrpoChartSpec[] = [
  {
    id: 'heldOut',
    name: 'Held-out success',
    metric: 'heldOut',
    plate: true,
    caption: (c) =>
      `The agent’s greedy answers to the world’s ${WORLDS[c.episode].split.heldOut.length} held-out sums, with the reliable calculator, graded exactly, at step 0 and after every step: look for it to rise from where fine-tuning left it.`,
  },
  {
    id: 'reward',
    name: 'Mean reward',
    metric: 'meanReward',
    plate: true,
    caption: (c) =>
      `The share of the step’s ${SAMPLED} sampled episodes (${GRPO.sumsPerStep} sums × ${GRPO.episodesPerSum}, temperature ${c.temperature}) the grader paid: look for it to climb with held-out success; climbing while held-out success does not, the grader pays for something other than the right answer.`,
  },
];

/** The diagnostics' short charts: fewer gridlines. */
const SMALL_PERCENT: YAxis = { ...PERCENT, ticks: [0, 0.5, 1] };

/** What every chart row of the GRPO stage shares: the runs, the reference band, the legend's entries. */
export function grpoRows({ plate, run, previous, config, steps, totalSteps, reference }: GrpoProps) {
  const earlier = earlierRuns(run, previous);
  const calculators = [...new Set([...earlier.map((r) => r.config.faulty), config.faulty])];
  const band = (metric: ReferenceMetric) => (reference ? referenceBand(reference, config, metric) : []);
  const seeds = reference && band('heldOut').length > 0 ? runsLike(reference, config).length : 0;
  const refLabel =
    seeds > 0
      ? `reference runs like this one (precomputed, ${seeds} seed${seeds === 1 ? '' : 's'})${reference!.placeholder ? ' — placeholder curves, not real runs' : ''}`
      : null;
  const legend = [...earlier, ...(run ? [run] : [])].map((r) => seriesOf(r, 'heldOut', r !== run));
  // True success rides on the reward's chart: what the grader paid beside what is right.
  const truth = run && { label: TRUTH_LABEL, exact: run.config.grader === 'exact' };
  const shared = {
    rows: plate.numbers.rows,
    run,
    earlier,
    config,
    steps,
    frame: Math.max(steps, totalSteps),
    calculators,
    like: reference ? runsLike(reference, config) : [],
  };
  const row = (c: GrpoChartSpec, height?: number) => (
    <ChartRow key={c.id} {...shared} chart={c} band={band(c.metric)} height={height} />
  );
  const legendOf = (plateMarks: boolean) => (
    <Legend
      entries={legend}
      referenceLabel={refLabel}
      truth={truth}
      seed={run ? seedPhrase(run.config.seed) : null}
      plateMarks={plateMarks && isPlateWorld(config)}
    />
  );
  return { row, legendOf };
}

export const GrpoPanel = memo(function GrpoPanel(p: GrpoProps) {
  const { row, legendOf } = grpoRows(p);
  const notes = settingNotes(p.config, p.reference);
  return (
    <section className="stage-panel stage-grpo" aria-label="GRPO">
      <h2 className="stage-title">GRPO</h2>
      {legendOf(true)}
      <div className="charts">{CHARTS.map((c) => row(c))}</div>
      {notes.length > 0 && (
        <aside className="figure-notes" aria-label="Notes on the settings">
          {notes.map((n) => (
            <p key={n}>
              <WithPartLinks sentence={n} />
            </p>
          ))}
          <SettingsLinks settings={p.config} />
        </aside>
      )}
    </section>
  );
}, sameGrpoSide);

interface RowProps extends Pick<GrpoProps, 'run' | 'config' | 'steps'> {
  chart: GrpoChartSpec;
  rows: PlateText['numbers']['rows'];
  earlier: readonly RunView[];
  /** The x axis runs 0..frame. */
  frame: number;
  calculators: readonly boolean[];
  band: readonly BandPoint[];
  /** A diagnostic's shorter chart (fewer gridlines); the plate's charts take the default. */
  height?: number;
  /** The reference runs made like the shown run (the readout's sentence reads their ends). */
  like: readonly ReferenceRun[];
}

/** One chart beside its readout: the live run over earlier ones, and the plate's numbers where it states them. */
function ChartRow({ chart: c, rows, run, earlier, config, steps, frame, calculators, band, height, like }: RowProps) {
  const live = run ? seriesOf(run, c.id, false) : null;
  const plateWorld = c.plate && isPlateWorld(config);
  const companion = run && c.id === 'reward' ? truthOf(run) : null;
  const captionId = useId();
  // The held-out chart's first steps dip at most seeds: why, measured (first-dip.ts).
  const dipWhy = run && c.id === 'heldOut' ? firstDipWhy(run) : null;
  return (
    <div className={`chart-row chart-${c.id}`}>
      <LineChart
        name={c.name}
        frame={frame}
        steps={steps}
        series={[...earlier.map((r) => seriesOf(r, c.id, true)), ...(live ? [live] : [])]}
        live={live}
        companion={companion}
        band={band}
        markers={plateWorld ? markers(rows, c.id as 'heldOut' | 'reward', calculators) : []}
        height={height}
        y={height ? SMALL_PERCENT : undefined}
        captionId={captionId}
      />
      <Readout
        name={c.name}
        live={readout(run?.steps ?? [], c.id)}
        tone={toneOf(config.faulty)}
        plate={plateWorld ? platePhrase(plateRows(rows, c.id as 'heldOut' | 'reward', config.faulty)) : ''}
        earlier={earlier.map((r) => ({
          label: `earlier run (${settingsLabel(r.config)})`,
          values: readout(r.steps, c.id),
          tone: toneOf(r.config.faulty),
        }))}
        companion={companion && { label: TRUTH_LABEL, values: readout(run!.steps, 'truth') }}
        why={run && c.id === 'heldOut' ? (heldOutGap(run, rows, earlier) ?? belowStart(run, like)) : null}
      />
      <p className="chart-caption" id={captionId}>
        {c.caption(config)}
      </p>
      {dipWhy && (
        <p className="dip-why" data-testid="dip-why">
          {dipWhy}
        </p>
      )}
    </div>
  );
}
