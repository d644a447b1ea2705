/**
 * Run every length (the claims' button): the held-fixed agent on each length it plays, one
 * run after another, each started as Run starts one, with the settings as set when it starts
 * (client/run-sequence.ts follows the runs). The controls show what trains: each length and its
 * agent become the reader's settings as that run starts.
 */
import { useEffect, useState } from 'react';
import { newSequence, sentAt, sequenceStep, stopped, type RunSequence } from '../client/run-sequence';
import type { TrainingWorker } from '../client/useTrainingWorker';
import type { RunConfig, RunSettings } from '../pipeline/settings';
import { CLAIM_AGENT, CLAIM_LENGTHS } from './figure/claims/longer-episode';

interface Reader {
  settings: RunSettings;
  /** Sets the controls without telling the worker (the run's own start does). */
  show: (s: RunSettings) => void;
  configOf: (s: RunSettings) => RunConfig;
}

export function useRunEveryLength(worker: TrainingWorker, reader: Reader, atLoad: boolean) {
  const [sequence, setSequence] = useState<RunSequence | null>(() =>
    atLoad ? newSequence(CLAIM_AGENT, CLAIM_LENGTHS) : null,
  );
  const { status, run, startSent, start } = worker;
  const { settings, show, configOf } = reader;
  // After every change of the worker's state: the sequence follows its run, or starts its next length.
  useEffect(() => {
    if (!sequence) return;
    const { next, start: length } = sequenceStep(sequence, { status, run, startSent });
    if (!length) {
      if (next !== sequence) setSequence(next);
      return;
    }
    const s = { ...settings, episode: length, agent: CLAIM_AGENT };
    show(s);
    start(configOf(s));
    setSequence(sentAt(next, run?.runId ?? -1));
  }, [sequence, status, run, startSent, start, settings, show, configOf]);
  return {
    sequence,
    onRunEveryLength: () => setSequence(newSequence(CLAIM_AGENT, CLAIM_LENGTHS)),
    /** Reset ends it at once: the page may never show a start that Reset dropped within a frame. */
    onReset: () => setSequence((q) => q && stopped(q)),
  };
}
