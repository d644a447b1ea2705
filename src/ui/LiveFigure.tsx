/**
 * The one container that talks to the worker: it owns the worker hook, keeps the reader's
 * settings, turns the controls into commands, queues an autorun (or a setting changed while
 * loading) until the worker is ready, and pauses while the figure is out of sight. Options that
 * change after mount (the element's attributes, the component's props) act as the matching
 * control would (useLiveOptions).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { GRPO } from '../config';
import type { RunConfig } from '../protocol/messages';
import type { PlateText } from '../plate/types';
import type { PlateAssets } from './assets';
import { useTrainingWorker } from '../client/useTrainingWorker';
import type { Settings } from './figure/Controls';
import { Figure } from './figure/Figure';
import { useReferenceRuns } from './figure/reference';
import type { PlateOptions } from './options';
import { useAutoPause } from './useAutoPause';
import { settingsOf, useLiveOptions } from './useLiveOptions';

interface Props {
  plate: PlateText;
  /** Checked options (src/ui/options.ts). */
  options: PlateOptions;
  notes: readonly string[];
  assets: PlateAssets;
  reproduceUrl?: (config: RunConfig) => string;
}

export function LiveFigure({ plate, options, notes, assets, reproduceUrl }: Props) {
  const worker = useTrainingWorker({ checkpoints: assets.checkpoints, wasm: assets.wasm, backend: options.backend, calibrate: options.calibrate, workerUrl: options.workerUrl });
  const reference = useReferenceRuns(assets.referenceRuns);
  const [settings, setSettings] = useState<Settings>(() => settingsOf(options));
  /** Runs up to this id were cleared by Reset and are no longer drawn. */
  const [clearedUpTo, setClearedUpTo] = useState(0);
  /** A run asked for while the worker was loading, sent once it is ready. */
  const queued = useRef(options.autorun ?? false);
  const box = useRef<HTMLDivElement>(null);
  const { status, run, start, configure, pause, resume, step, reset, ask } = worker;
  const asked = useRef(0);
  const configOf = (s: Settings): RunConfig => ({ ...s, seed: options.seed ?? 1, steps: options.steps ?? GRPO.steps });

  useEffect(() => {
    if (status !== 'ready' || !queued.current) return;
    queued.current = false;
    start(configOf(settings));
  });

  const autoPaused = useAutoPause({ target: box, status, pause, resume });

  const onRun = () => {
    if (status === 'paused' || status === 'stepping') resume();
    else if (status === 'loading') queued.current = true;
    else start(configOf(settings));
  };

  // One step: of the paused run, or the first of a new one (the worker takes the step with the start).
  const onStep = () => {
    if (status === 'paused') return step();
    start(configOf(settings));
    step();
  };

  // A changed setting starts a run with it; with a run on the charts, the worker redoes only
  // what the setting affects (the calculator: GRPO from this run's own agent).
  const onSettings = (next: Settings) => {
    setSettings(next);
    if (status === 'loading') queued.current = true;
    else if (run) configure(configOf(next));
    else start(configOf(next));
  };

  const restartNote = useLiveOptions(options, {
    settings: (patch) => onSettings({ ...settings, ...patch }),
    // Autorun turned on: as if Run were pressed, unless a run already goes.
    autorun: () => status !== 'running' && status !== 'pausing' && onRun(),
  });

  const onReset = useCallback(() => {
    const ids = [worker.run?.runId ?? 0, ...worker.previous.map((r) => r.runId)];
    setClearedUpTo(Math.max(...ids));
    reset();
  }, [worker.run, worker.previous, reset]);

  const shownRun = run && run.runId > clearedUpTo ? run : null;
  return (
    <div ref={box} className="live-figure">
      <Figure
        plate={plate}
        worker={worker}
        run={shownRun}
        previous={worker.previous.filter((r) => r.runId > clearedUpTo)}
        settings={settings}
        totalSteps={GRPO.steps}
        reference={reference}
        notes={restartNote ? [...notes, restartNote] : notes}
        autoPaused={autoPaused}
        onRun={onRun}
        onPause={pause}
        onStep={onStep}
        onReset={onReset}
        onSettings={onSettings}
        onRestart={worker.restartWorker}
        reproduceUrl={reproduceUrl}
        onAsk={(q) => ask({ ...q, id: ++asked.current })}
      />
    </div>
  );
}
