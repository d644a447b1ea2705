/**
 * The live figure, from plain props, read as the plate reads. Under the caption: Run, Step, Reset
 * and the faulty calculator, the status in a line, the charts (the pipeline's stages that run
 * here, then GRPO's two); then the deeper parts, each one click away (parts/): what the sampled
 * episodes do, the switches that break the plate's terms, where a run starts, one step taken
 * apart, what a practitioner reads, taking the run away. Beside the results' paragraphs
 * (parts/Beside.tsx): the plate's numbers beside "From the fine-tuned agent at 77%…", the closing
 * claims beside "The difficulties grow with the episode…", where a step's time goes beside "its
 * speed limits the sampling rate".
 */
import { Suspense, useMemo } from 'react';
import { ChunkError } from '../ChunkError';
import { AGENT_RECIPE, GRPO } from '../../config';
import type { AskQuestion } from '../../protocol/messages';
import type { GrpoStepView } from '../../protocol/episode-view';
import type { RunConfig } from '../../pipeline/settings';
import type { SupervisedRecord } from '../../agent/stage';
import { stagesFrom } from '../../pipeline/stages';
import { agentOf, isPlateWorld } from '../../env/world';
import type { RunSettings } from '../../pipeline/settings';
import type { PlateText } from '../../plate/types';
import type { WorkerState } from '../../client/worker-state';
import type { RunSequence } from '../../client/run-sequence';
import { EpisodeBehaviour } from './behaviour/EpisodeBehaviour';
import { LongerEpisode } from './claims/LongerEpisode';
import { sequenceWords } from './claims/longer-episode';
import { position } from './curves';
import type { LinkConfig } from './export/export';
import { RunExport } from './export/RunExport';
import { NumbersTable } from './numbers/NumbersTable';
import { Beside } from './parts/Beside';
import {
  behaviourHeadline,
  practitionerHeadline,
  settingsHeadline,
  startHeadline,
  stepHeadline,
  timeHeadline,
} from './parts/headlines';
import { Part } from './parts/Part';
import { PartsContext, type Parts } from './parts/useParts';
import { VitalSigns } from './practitioner/VitalSigns';
import { referenceBand, sftBand, type ReferenceState } from './reference';
import { FirstPath } from './run/FirstPath';
import { GrpoPanel } from './run/GrpoPanel';
import { RunControls } from './run/RunControls';
import { settingsWaitText } from './run/settings-wait';
import { StagePanel } from './run/StagePanel';
import { scratchNote } from './run/start-note';
import { StatusLine } from './run/StatusLine';
import { SeedChoice, StartChoice } from './start/StartChoice';
import { StageStrip } from './start/StageStrip';
import { TaughtData } from './start/TaughtData';
import { StepTakenApart } from './step/step-load';
import { TermSwitches } from './terms/TermSwitches';
import { TimeSplit } from './time/TimeSplit';
import { toneOf, type Marker, type RunView } from './types';
import type { SupervisedStageName } from '../../agent/stage';
import { BESIDE, paragraphWith } from './parts/paragraphs';

export interface FigureProps {
  plate: PlateText;
  worker: WorkerState;
  /** The live run, or the latest finished one (null before a run and after Reset). */
  run: RunView | null;
  previous: readonly RunView[];
  settings: RunSettings;
  totalSteps: number;
  /** The reference runs of each world: the one-call world's (the plate's), and the two-call world's. */
  reference: ReferenceState;
  referenceThreeCalls: ReferenceState;
  /** The claims' section came near the screen: the held-fixed agent's reference runs are wanted. */
  onClaimsNear: () => void;
  /** Run every length (run-sequence.ts): the latest sequence, and the button's action. */
  sequence: RunSequence | null;
  onRunEveryLength: () => void;
  notes: readonly string[];
  onRun: () => void;
  onPause: () => void;
  onStep: () => void;
  onReset: () => void;
  onSettings: (s: RunSettings) => void;
  /** The seed of the next run, and the reader's choice of another. */
  seed: number;
  onSeed: (seed: number) => void;
  onRestart: () => void;
  /** The host's link that sets a run's configuration up again (RunExport). */
  reproduceUrl?: (config: LinkConfig) => string;
  /** Which deeper parts are open (parts/useParts.ts). */
  parts: Parts;
  /** The reader asks the current policy a sum (the container numbers it). */
  onAsk: (q: Omit<AskQuestion, 'id'>) => void;
}

const NONE: readonly SupervisedRecord[] = [];

/** The slow note's offer: this run's link with fewer GRPO steps. */
const fewerStepsOf =
  (reproduceUrl: (config: LinkConfig) => string, config: RunConfig) =>
  (steps: number): string =>
    reproduceUrl({ ...config, steps });

const referenceOf = (r: ReferenceState) => (r && 'runs' in r ? r.runs : null);

/** The reference file of the agent that plays `s`: the three-call agent's holds its runs at every length. */
const referenceFor = (p: Pick<FigureProps, 'reference' | 'referenceThreeCalls'>, s: RunSettings): ReferenceState =>
  agentOf(s) === 'three-calls' ? p.referenceThreeCalls : p.reference;

/** The plate's 77% for a fine-tuned agent, marked at the end of fine-tuning. */
function sftMarker(plate: PlateText): Marker | undefined {
  const row = plate.numbers.rows.find((r) => r.chart === 'heldOut' && r.step === 0);
  return (
    row && {
      step: AGENT_RECIPE.sft.steps,
      value: row.value,
      label: `plate ${row.plate.replace(/\s*\(.*\)$/, '')}`,
      tone: toneOf(false),
    }
  );
}

/** What every part's body reads of the run: the steps and frame of its charts, the latest step with episodes. */
interface Shown {
  steps: number;
  frame: number;
  start: RunConfig['start'];
  latestWithEpisodes: GrpoStepView | null;
  noRun: boolean;
}

export function Figure(p: FigureProps) {
  const steps = p.run?.config.steps ?? p.totalSteps;
  const shown: Shown = {
    steps,
    frame: Math.max(steps, p.totalSteps),
    start: p.run?.config.start ?? p.settings.start,
    latestWithEpisodes: [...(p.run?.steps ?? [])].reverse().find((r) => r.episodes.length > 0) ?? null,
    // Printed before any run, the figure is the plate's marks and the reference bands, said so in a
    // line; the parts that only wait for a run (and say so, for a screen) stay off the paper.
    noRun: p.run === null && p.previous.length === 0,
  };
  return (
    <PartsContext.Provider value={p.parts}>
      <div className={shown.noRun ? 'figure-body no-run' : 'figure-body'}>
        {shown.noRun && (
          <p className="print-note">
            No run had been made on this page when it was printed: the charts show the plate’s numbers and the reference
            runs, precomputed.
          </p>
        )}
        <FirstPath />
        <RunHead {...p} />
        <Charts {...p} steps={steps} start={shown.start} />
        <DeeperParts {...p} {...shown} />
        <BesideTheText {...p} {...shown} />
      </div>
    </PartsContext.Provider>
  );
}

/** Under the charts, each one click away: what the episodes do, the terms, the start, one step, the vital signs, the export. */
function DeeperParts(p: FigureProps & Shown) {
  const t = p.worker;
  const hasData = p.run !== null && p.run.steps.length + p.run.sft.length + p.run.pretrain.length > 0;
  return (
    <div className="parts">
      <Part id="behaviour" level={2} headline={behaviourHeadline(p.run)}>
        <EpisodeBehaviour
          plate={p.plate}
          run={p.run}
          previous={p.previous}
          config={p.run?.config ?? p.settings}
          steps={p.steps}
          totalSteps={p.totalSteps}
          reference={referenceOf(referenceFor(p, p.run?.config ?? p.settings))}
        />
      </Part>
      <Part id="terms" level={2} headline={settingsHeadline('terms', p.settings)}>
        <TermSwitches status={t.status} settings={p.settings} onSettings={p.onSettings} />
      </Part>
      <Part id="start" level={2} headline={startHeadline(p.settings, p.seed)}>
        <StartChoice status={t.status} settings={p.settings} onSettings={p.onSettings} />
        <SeedChoice status={t.status} seed={p.seed} onSeed={p.onSeed} />
        <StageStrip start={p.start} run={p.run} />
        <TaughtData />
      </Part>
      <Part id="step" level={2} headline={stepHeadline(p.latestWithEpisodes, GRPO.episodesPerSum)}>
        <StepPart {...p} />
      </Part>
      <Part id="practitioner" level={2} headline={practitionerHeadline(p.run)}>
        <VitalSigns
          status={t.status}
          run={p.run}
          settings={p.settings}
          onSettings={p.onSettings}
          frame={p.frame}
          steps={p.steps}
        />
      </Part>
      {/* Always there, so that a part the reader opened stays open while a run of every length
          moves from one length to the next (each starts with no data). */}
      <Part id="export" level={2}>
        {p.run && hasData ? (
          <RunExport
            run={p.run}
            backend={t.backend?.backend ?? null}
            shown={p.latestWithEpisodes}
            plate={p.plate.id}
            reproduceUrl={p.reproduceUrl}
            lengths={sequenceRuns(p)}
          />
        ) : (
          <p className="export-none">
            Nothing to take away yet: a run’s files come with its first step. Press Run or Step, and they are here.
          </p>
        )}
      </Part>
    </div>
  );
}

/** One step taken apart, its code asked for when the part first opens. */
function StepPart(p: FigureProps & Shown) {
  return (
    <ChunkError
      said={(error) => (
        <p className="part-loading" role="alert">
          The step taken apart could not be loaded ({error.message}); the charts and every other part still work. Reload
          the page to try again.
        </p>
      )}
    >
      <Suspense fallback={<p className="part-loading">Loading the step taken apart…</p>}>
        <StepTakenApart
          record={p.latestWithEpisodes}
          config={p.run?.config ?? null}
          status={p.worker.status}
          loaded={p.worker.ready !== null}
          faulty={p.settings.faulty}
          temperature={p.settings.temperature}
          waiting={p.worker.asks.waiting}
          answer={p.worker.asks.answer}
          onAsk={p.onAsk}
        />
      </Suspense>
    </ChunkError>
  );
}

/** Beside the results' paragraphs (parts/Beside.tsx): the plate's numbers, the closing claims, where a step's time goes. */
function BesideTheText(p: FigureProps & Shown) {
  const at = (words: string) => paragraphWith(p.plate.longerEpisode.paragraphs, words);
  return (
    <>
      <Beside noRun={p.noRun} paragraph={at(BESIDE.numbers)} label="The plate’s numbers beside your run">
        <NumbersTable
          heading={p.plate.numbers.heading}
          rows={p.plate.numbers.rows}
          runs={[...p.previous.filter((r) => r.runId !== p.run?.runId), ...(p.run ? [p.run] : [])]}
        />
      </Beside>
      <Beside noRun={p.noRun} paragraph={at(BESIDE.claims)} label="The closing claims, measured">
        <LongerEpisode
          status={p.worker.status}
          run={p.run}
          previous={p.previous}
          settings={p.settings}
          onSettings={p.onSettings}
          reference={p.referenceThreeCalls}
          onNear={p.onClaimsNear}
          sequence={p.sequence}
          onRunEveryLength={p.onRunEveryLength}
        />
      </Beside>
      <Beside noRun={p.noRun} paragraph={at(BESIDE.time)} label="Where a step’s time goes, measured in this browser">
        <Part id="time" level={4} headline={timeHeadline(p.run)}>
          <TimeSplit run={p.run} frame={p.frame} />
        </Part>
      </Beside>
    </>
  );
}

/** Run, Step, Reset and the faulty calculator, then the status in a line (with the host's notes and the reference's). */
function RunHead(p: FigureProps) {
  const t = p.worker;
  // The band missing from the charts is the shown world's: its file's note, not the other's.
  const shown = referenceFor(p, p.run?.config ?? p.settings);
  const notes = shown && 'unavailable' in shown ? [...p.notes, shown.unavailable] : p.notes;
  return (
    <>
      <RunControls
        status={t.status}
        settings={p.settings}
        canReset={p.run !== null || p.previous.length > 0}
        onRun={p.onRun}
        onPause={p.onPause}
        onStep={p.onStep}
        onReset={p.onReset}
        onSettings={p.onSettings}
      />
      <SettingsWait run={p.run} settings={p.settings} />
      <StatusLine
        status={t.status}
        loadingMessage={t.loading ?? undefined}
        ready={t.ready}
        backend={t.backend}
        lastSwitch={t.lastSwitch}
        position={p.run ? position(p.run) : null}
        stagesAfter={p.run ? p.run.stages.slice(p.run.stages.indexOf(p.run.stage) + 1) : []}
        stepsPerSecond={t.stepsPerSecond}
        inFlight={t.inFlight}
        grpoSteps={p.run?.config.steps ?? null}
        fewerStepsHref={p.reproduceUrl && p.run ? fewerStepsOf(p.reproduceUrl, p.run.config) : undefined}
        inSequence={sequenceWords(p.sequence)}
        bandDrawn={
          shown !== null &&
          'runs' in shown &&
          referenceBand(shown.runs, p.run?.config ?? p.settings, 'heldOut').length > 0
        }
        holders={t.holders}
        error={t.error?.message ?? null}
        notes={notes}
        onRestart={p.onRestart}
      />
    </>
  );
}

/** The runs of the latest run of every length once it is over, in order, when the run shown is one of them. */
function sequenceRuns(p: Pick<FigureProps, 'sequence' | 'run' | 'previous'>): RunView[] {
  const ids = p.sequence && p.sequence.state !== 'running' ? p.sequence.runIds : [];
  if (!p.run || !ids.includes(p.run.runId)) return [];
  const all = [...p.previous, p.run];
  return ids.flatMap((id) => all.filter((r) => r.runId === id).slice(-1));
}

/** After a run has ended, the settings changed since wait for Run or Step: said beside the controls (settings-wait.ts). */
function SettingsWait({ run, settings }: { run: RunView | null; settings: RunSettings }) {
  const text = settingsWaitText(run && { config: run.config, ended: run.end !== undefined }, settings);
  return (
    text && (
      <p className="settings-wait" role="status">
        {text}
      </p>
    )
  );
}

/** The charts: the pipeline's supervised stages that run from `start`, each beside an earlier run's, then GRPO's. */
function Charts(p: FigureProps & { steps: number; start: RunConfig['start'] }) {
  const pipeline = stagesFrom(p.start);
  const shownConfig = p.run?.config ?? p.settings;
  const ref = referenceOf(referenceFor(p, shownConfig));
  const earlierWith = (stage: SupervisedStageName) =>
    [...p.previous].reverse().find((r) => r.runId !== p.run?.runId && r[stage].length > 0)?.[stage] ?? null;
  const sftBandOf = useMemo(() => (ref ? sftBand(ref) : undefined), [ref]);
  // The plate's numbers are its agent's, in its world: marked there only.
  const plateWorld = isPlateWorld(shownConfig);
  const marker = useMemo(() => (plateWorld ? sftMarker(p.plate) : undefined), [p.plate, plateWorld]);
  return (
    <>
      {pipeline.includes('pretrain') && (
        <StagePanel
          stage="pretrain"
          records={p.run?.pretrain ?? NONE}
          earlier={earlierWith('pretrain')}
          steps={AGENT_RECIPE.pretrain.steps}
        />
      )}
      {pipeline.includes('sft') && (
        <StagePanel
          stage="sft"
          records={p.run?.sft ?? NONE}
          earlier={earlierWith('sft')}
          steps={AGENT_RECIPE.sft.steps}
          band={sftBandOf}
          plateMarker={marker}
        />
      )}
      {p.run?.config.start === 'scratch' && <p className="start-note">{scratchNote(p.run.config.seed)}</p>}
      <GrpoPanel
        plate={p.plate}
        run={p.run}
        previous={p.previous}
        config={shownConfig}
        steps={p.steps}
        totalSteps={p.totalSteps}
        reference={ref}
      />
    </>
  );
}
