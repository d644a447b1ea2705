/**
 * The live figure, from plain props: controls and status, the pipeline's stages (charts for
 * the ones that run here), the GRPO charts, the episode viewer and the plate's numbers beside
 * the reader's run.
 */
import { AGENT_RECIPE } from '../../config';
import { stagesFrom } from '../../protocol/messages';
import type { PlateText } from '../../plate/types';
import type { TrainerState } from '../../trainer/trainer-state';
import type { AutoPauseReason } from '../useAutoPause';
import { Controls, type Settings } from './Controls';
import { EpisodeViewer } from './EpisodeViewer';
import { GrpoPanel } from './GrpoPanel';
import { position } from './model';
import { NumbersTable } from './NumbersTable';
import { sftBand, type ReferenceState } from './reference';
import { RunExport } from './RunExport';
import { StagePanel } from './StagePanel';
import { StageStrip } from './StageStrip';
import { StatusLine } from './StatusLine';
import { TaughtData } from './TaughtData';
import { toneOf, type Marker, type RunView } from './types';

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

export function Figure(p: FigureProps) {
  const t = p.trainer;
  const steps = p.run?.config.steps ?? p.totalSteps;
  const start = p.run?.config.start ?? p.settings.start;
  const pipeline = stagesFrom(start);
  const ref = p.reference && 'runs' in p.reference ? p.reference.runs : null;
  const latestWithEpisodes = [...(p.run?.steps ?? [])].reverse().find((r) => r.episodes.length > 0) ?? null;
  const notes = p.reference && 'unavailable' in p.reference ? [...p.notes, p.reference.unavailable] : p.notes;
  const earlierWith = (stage: 'pretrain' | 'sft') => [...p.previous].reverse().find((r) => r.runId !== p.run?.runId && r[stage].length > 0 && r !== p.run) ?? null;
  const plate77 = p.plate.numbers.rows.find((r) => r.chart === 'heldOut' && r.step === 0);
  const sftMarker: Marker | undefined = plate77 && { step: AGENT_RECIPE.sft.steps, value: plate77.value, label: `plate ${plate77.plate.replace(/\s*\(.*\)$/, '')}`, tone: toneOf(false) };

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
      <StageStrip start={start} run={p.run} />
      <TaughtData />
      {pipeline.includes('pretrain') && <StagePanel stage="pretrain" run={p.run} earlier={earlierWith('pretrain')} steps={AGENT_RECIPE.pretrain.steps} />}
      {pipeline.includes('sft') && (
        <StagePanel stage="sft" run={p.run} earlier={earlierWith('sft')} steps={AGENT_RECIPE.sft.steps} band={ref ? sftBand(ref) : undefined} plateMarker={sftMarker} />
      )}
      <GrpoPanel plate={p.plate} run={p.run} previous={p.previous} config={p.run?.config ?? p.settings} steps={steps} totalSteps={p.totalSteps} reference={ref} />
      <EpisodeViewer record={latestWithEpisodes} config={p.run?.config ?? null} />
      {p.run && p.run.steps.length + p.run.sft.length + p.run.pretrain.length > 0 && (
        <RunExport run={p.run} backend={t.backend?.backend ?? null} shown={latestWithEpisodes} plate={p.plate.id} />
      )}
      <NumbersTable heading={p.plate.numbers.heading} rows={p.plate.numbers.rows} runs={[...p.previous.filter((r) => r.runId !== p.run?.runId), ...(p.run ? [p.run] : [])]} />
    </div>
  );
}
