/**
 * The one container that talks to the worker: it owns the worker hook, keeps the reader's
 * settings, turns the controls into actions, queues an autorun until the worker is ready, starts
 * the worker only once the figure comes near the screen (useNear), and holds the run while the
 * figure is out of sight or the tab hidden (useHolds). Before a run and after one a
 * setting waits for Run or Step. Options that change after mount (the element's attributes,
 * the component's props) act as the matching control would (useLiveOptions).
 */
import { useCallback, useContext, useEffect, useRef, useState } from 'react';
import { DEFAULT_SEED, GRPO } from '../config';
import { agentOf } from '../env/world';
import {
  PLATE_SETTINGS,
  SETTING_KEYS,
  withPlayableAgent,
  type RunConfig,
  type RunSettings,
  type SettingKey,
} from '../pipeline/settings';
import type { PlateText } from '../plate/types';
import type { LinkConfig } from './figure/export/export';
import type { PlateAssets } from './assets';
import { useTrainingWorker, type TrainingWorker } from '../client/useTrainingWorker';
import { Figure } from './figure/Figure';
import { partsOfSettings, type PartId } from './figure/parts/parts';
import { useParts, type Parts } from './figure/parts/useParts';
import { CLAIM_AGENT } from './figure/claims/longer-episode';
import { useReferenceRuns } from './figure/reference';
import type { PlateOptions } from './options';
import { PlateSlots } from './plate-slots';
import { usePageHolds } from './useHolds';
import { useNear } from './useNear';
import { useRunEveryLength } from './useRunEveryLength';
import { settingsOf, useLiveOptions } from './useLiveOptions';

export interface LiveFigureProps {
  plate: PlateText;
  /** Checked options (src/ui/options.ts). */
  options: PlateOptions;
  notes: readonly string[];
  assets: PlateAssets;
  reproduceUrl?: (config: LinkConfig) => string;
}

export function LiveFigure({ plate, options, notes, assets, reproduceUrl }: LiveFigureProps) {
  const box = useRef<HTMLDivElement>(null);
  // Nothing is fetched until the figure comes near: a page of ten plates costs nothing until read.
  // The parts beside the plate's paragraphs count as the figure: near any, it starts; seen, it trains.
  const slots = useContext(PlateSlots) ?? undefined;
  const near = useNear(box, undefined, slots);
  const { checkpoints, wasm, worker: source, backends } = assets;
  const worker = useTrainingWorker({
    checkpoints,
    wasm,
    worker: source,
    backends,
    backend: options.backend,
    calibrate: options.calibrate,
    workerUrl: options.workerUrl,
    enabled: near,
  });
  const reference = useReferenceRuns(near ? assets.referenceRuns : null);
  usePageHolds(box, worker.hold, worker.release, slots);
  const parts = useParts(givenParts(options));
  const controls = useReaderControls(worker, options, parts);
  // The held-fixed agent's runs: fetched once the reader picks that agent, or the claims' section
  // comes near the screen (or is printed), not on a first visit.
  const [claimsNear, setClaimsNear] = useState(false);
  const onClaimsNear = useCallback(() => setClaimsNear(true), []);
  const picked = useOnce(
    claimsNear ||
      agentOf(controls.settings) === CLAIM_AGENT ||
      (worker.run !== null && agentOf(worker.run.config) === CLAIM_AGENT),
  );
  const referenceThreeCalls = useReferenceRuns(near && picked ? assets.referenceRunsThreeCalls : null);
  const asked = useRef(0);

  return (
    <div ref={box} className="live-figure">
      <Figure
        plate={plate}
        worker={worker}
        run={worker.run}
        previous={worker.previous}
        settings={controls.settings}
        totalSteps={GRPO.steps}
        reference={reference}
        referenceThreeCalls={referenceThreeCalls}
        onClaimsNear={onClaimsNear}
        sequence={controls.sequence}
        onRunEveryLength={controls.onRunEveryLength}
        notes={controls.restartNote ? [...notes, controls.restartNote] : notes}
        onRun={controls.onRun}
        onPause={worker.pause}
        onStep={controls.onStep}
        onReset={controls.onReset}
        onSettings={controls.onSettings}
        seed={controls.seed}
        onSeed={controls.onSeed}
        onRestart={worker.restartWorker}
        reproduceUrl={reproduceUrl}
        onAsk={(q) => worker.ask({ ...q, id: ++asked.current })}
        parts={parts}
      />
    </div>
  );
}

/** The parts whose controls the options set (other than the plate's): open from the start. */
function givenParts(options: PlateOptions): PartId[] {
  const given = SETTING_KEYS.filter((k) => options[k] !== undefined && options[k] !== PLATE_SETTINGS[k]);
  return [...partsOfSettings(given), ...(options.seed !== undefined ? (['start'] as const) : [])];
}

/** True from the first render at which `now` is, on. */
function useOnce(now: boolean): boolean {
  const [once, setOnce] = useState(now);
  if (now && !once) setOnce(true); // React's pattern for state kept from an earlier render
  return once;
}

/**
 * The reader's settings and what Run, Step and a changed setting do with them; an autorun (or a
 * Run pressed while the worker loads) waits for Ready; options changed after mount act as the
 * matching control.
 */
function useReaderControls(worker: TrainingWorker, options: PlateOptions, parts: Parts) {
  const [settings, setSettings] = useState<RunSettings>(() => settingsOf(options));
  const [seed, setSeed] = useState(options.seed ?? DEFAULT_SEED);
  /** A run asked for while the worker was loading, sent once it is ready. */
  const queued = useRef((options.autorun ?? false) && !options.everyLength);
  const { status, start, configure, resume, step } = worker;
  const configOf = useCallback(
    (s: RunSettings): RunConfig => ({ ...s, seed, steps: options.steps ?? GRPO.steps }),
    [seed, options.steps],
  );
  const {
    sequence,
    onRunEveryLength,
    onReset: endSequence,
  } = useRunEveryLength(
    worker,
    { settings, show: setSettings, configOf },
    (options.autorun ?? false) && (options.everyLength ?? false),
  );

  useEffect(() => {
    if (status !== 'ready' || !queued.current) return;
    queued.current = false;
    start(configOf(settings));
  });

  const onRun = () => {
    if (status === 'paused' || status === 'stepping') resume();
    else if (status === 'loading') queued.current = true;
    else start(configOf(settings));
  };
  // One step: of the paused run, or the first of a new one (the worker takes the step with the
  // start); the step taken apart opens, to show it.
  const onStep = () => {
    parts.set('step', true);
    step(configOf(settings));
  };
  // During a run the worker redoes only what the setting affects (the calculator: GRPO from this
  // run's own agent, at the next step); before a run and after one, the reducer sends nothing:
  // the setting waits for Run or Step.
  const onSettings = (asked: RunSettings) => {
    const next = withPlayableAgent(asked);
    setSettings(next);
    configure(configOf(next));
  };
  const restartNote = useLiveOptions(options, {
    settings: (patch) => {
      for (const id of partsOfSettings(Object.keys(patch) as SettingKey[])) parts.set(id, true);
      onSettings({ ...settings, ...patch });
    },
    // Autorun turned on: as if Run were pressed, unless a run already goes.
    autorun: () => status !== 'running' && status !== 'pausing' && onRun(),
  });
  // A seed is part of the run as a setting is: during a run the worker starts afresh with it,
  // otherwise it waits for Run or Step.
  const onSeed = (next: number) => {
    setSeed(next);
    configure({ ...configOf(settings), seed: next });
  };
  const onReset = () => {
    endSequence();
    worker.reset();
  };
  return { settings, seed, onRun, onStep, onSettings, onSeed, restartNote, sequence, onRunEveryLength, onReset };
}
