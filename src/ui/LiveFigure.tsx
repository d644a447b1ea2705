/**
 * The one container that talks to the trainer: it owns the worker hook, turns the controls
 * into commands, queues an autorun (or a switch flipped while loading) until the worker is
 * ready, and pauses while the figure is out of sight.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { GRPO } from '../config';
import type { PlateText } from '../plate/types';
import { useTrainer } from '../worker/useTrainer';
import { Figure } from './figure/Figure';
import { useReferenceRuns } from './figure/reference';
import type { PlateOptions } from './options';
import { useAutoPause } from './useAutoPause';

interface Props {
  plate: PlateText;
  options: PlateOptions;
  notes: readonly string[];
  /** Absolute URL of the folder holding checkpoints/ and reference-runs.json. */
  assetBase: string;
}

export function LiveFigure({ plate, options, notes, assetBase }: Props) {
  const trainer = useTrainer({ checkpointUrl: new URL('checkpoints/agent/', assetBase).href, backend: options.backend });
  const reference = useReferenceRuns(new URL('reference-runs.json', assetBase).href);
  const [faulty, setFaulty] = useState(options.faulty ?? false);
  /** Runs up to this id were cleared by Reset and are no longer drawn. */
  const [clearedUpTo, setClearedUpTo] = useState(0);
  const queued = useRef(options.autorun ?? false);
  const box = useRef<HTMLDivElement>(null);
  const { status, start, pause, resume, reset } = trainer;
  const config = { seed: options.seed ?? 1, steps: options.steps ?? GRPO.steps };

  const begin = (withFaulty: boolean) => {
    if (status === 'loading') queued.current = true;
    else start({ ...config, faulty: withFaulty });
  };

  useEffect(() => {
    if (status !== 'ready' || !queued.current) return;
    queued.current = false;
    start({ ...config, faulty });
  });

  useAutoPause({ target: box, status, pause, resume });

  const onReset = useCallback(() => {
    const ids = [trainer.run?.runId ?? 0, ...trainer.previous.map((r) => r.runId)];
    setClearedUpTo(Math.max(...ids));
    reset();
  }, [trainer.run, trainer.previous, reset]);

  return (
    <div ref={box} className="live-figure">
      <Figure
        plate={plate}
        status={status}
        loadingMessage={trainer.loading ?? undefined}
        ready={trainer.ready}
        run={trainer.run && trainer.run.runId > clearedUpTo ? trainer.run : null}
        previous={trainer.previous.filter((r) => r.runId > clearedUpTo)}
        error={trainer.error?.message ?? null}
        stepsPerSecond={trainer.stepsPerSecond}
        faulty={faulty}
        totalSteps={GRPO.steps}
        reference={reference}
        notes={notes}
        onRun={() => (status === 'paused' ? resume() : begin(faulty))}
        onPause={pause}
        onReset={onReset}
        onFaulty={(f) => {
          setFaulty(f);
          begin(f);
        }}
        onRestart={trainer.restartWorker}
      />
    </div>
  );
}
