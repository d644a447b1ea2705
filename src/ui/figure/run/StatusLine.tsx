/**
 * What the trainer is doing, in words: loading, the stage and step and, while it trains, the time
 * left (time-left.ts) and — where a step takes long enough to report its parts — how far the step
 * in flight has got, who holds it paused, the backend in use in one short line with why (after a
 * switch too) one click away, on a slow engine why and what still serves, errors with a way out,
 * and notes.
 */
import { Fragment } from 'react';
import { BACKEND_LABEL } from '../../../protocol/backends';
import type { Stage } from '../../../pipeline/stages';
import { STAGE_NAME, stageWord } from './stages';
import {
  aboutDuration,
  engineText,
  fewerSteps,
  inFlightText,
  paceOf,
  slowText,
  stepTime,
  stillServes,
  timeLeftText,
  type Pace,
} from './time-left';
import type { BackendInfo, BackendSwitch, Holder, InFlight, ReadyInfo, WorkerStatus } from '../types';

interface Props {
  status: WorkerStatus;
  loadingMessage?: string;
  ready: ReadyInfo | null;
  backend: BackendInfo | null;
  lastSwitch: BackendSwitch | null;
  /** The stage, step and step count of the latest record, if any. */
  position: { stage: Stage; step: number; steps: number } | null;
  /** The run's stages after the current one (their pace is not known yet). */
  stagesAfter: readonly Stage[];
  stepsPerSecond: number | null;
  /** The record in flight, where a step reports its parts (an engine without its JIT). */
  inFlight: InFlight | null;
  /** The run's GRPO steps (null before a run). */
  grpoSteps: number | null;
  /** A link to this run with fewer GRPO steps, where the page has one (the standalone page's URL). */
  fewerStepsHref?: (steps: number) => string;
  /** A reference band of the run's settings is on the charts (the slow-engine note points to it). */
  bandDrawn: boolean;
  /** Which of a run of every length trains: "one call, 1 of 2" (null outside one). */
  inSequence: string | null;
  /** Who holds the run paused (the reader, the figure out of view, the tab hidden). */
  holders: readonly Holder[];
  /** An error that stopped the trainer or the run (shown as an alert). */
  error: string | null;
  /** Sentences about what is missing but does not stop anything (not alerts). */
  notes: readonly string[];
  onRestart: () => void;
}

const WORD: Record<WorkerStatus, string> = {
  loading: 'Loading',
  ready: 'Ready',
  running: 'Training',
  stepping: 'Stepping…',
  pausing: 'Pausing…',
  paused: 'Paused',
  done: 'Finished',
  error: 'Error',
  dead: 'Stopped',
};

/** Who holds the run, as the status line's sentence goes on: "Paused after GRPO step 1 by you". */
const HELD_BY: Record<Holder, string> = {
  reader: 'by you',
  'out of view': 'while the figure is out of view',
  'tab hidden': 'while this tab is hidden',
};
/** What lets each holder go: "…: it goes on when you press Resume". */
const LET_GO: Record<Holder, string> = {
  reader: 'you press Resume',
  'out of view': 'you scroll back to it',
  'tab hidden': 'you come back to this tab',
};

/** The idle warm-up (worker/warm-up.ts) in a sentence: the CPU the page used after loading, and why the first steps are quick. */
const warmUpSentence = (w: { ms: number; complete: boolean }): string =>
  w.complete
    ? `Warmed up while idle (${(w.ms / 1000).toFixed(1)} s): the first steps are faster than from a cold start.`
    : `Warm-up cut short by the first run after ${(w.ms / 1000).toFixed(1)} s.`;

export function StatusLine(p: Props) {
  const { backend, lastSwitch } = p;
  const pace = paceOf(p.stepsPerSecond, p.position?.stage ?? null, p.inFlight);
  return (
    <div className="status">
      <RunLine {...p} pace={pace} />
      {backend && <BackendLine backend={backend} ready={lastSwitch ? null : p.ready} pace={pace} />}
      {lastSwitch && (
        <p className="status-switch">
          Switched from {BACKEND_LABEL[lastSwitch.from]} to {BACKEND_LABEL[lastSwitch.to]}: {lastSwitch.cause}.
        </p>
      )}
      {p.error && (
        <p className="status-error" role="alert">
          {p.error}{' '}
          {(p.status === 'dead' || p.status === 'error') && (
            <button type="button" onClick={p.onRestart}>
              Restart the trainer
            </button>
          )}
        </p>
      )}
      {/* A file of the plate's that did not load is the site's to fix: said in the open, not only under "Why not". */}
      {backend?.skipped
        .filter((s) => s.file !== undefined)
        .map((s) => (
          <p key={`file-${s.backend}`} className="status-note">
            {BACKEND_LABEL[s.backend]} could not start: {s.reason}.
          </p>
        ))}
      <SlowNote {...p} pace={pace} />
      {p.notes.map((n) => (
        <p key={n} className="status-note">
          {n}
        </p>
      ))}
    </div>
  );
}

const LIVE: readonly WorkerStatus[] = ['running', 'pausing', 'paused', 'stepping'];

/**
 * On a slow engine: why (the engine's condition, from Ready on), how slow once the pace is known
 * (from the first part of a step on), a shorter run where the page can link one, and what still
 * serves the reader.
 */
function SlowNote({ status, backend, bandDrawn, grpoSteps, fewerStepsHref, pace }: Props & { pace: Pace }) {
  if (!backend || status === 'loading') return null;
  const live = LIVE.includes(status);
  const slow = live ? slowText(pace, BACKEND_LABEL[backend.backend]) : null;
  const why = engineText(backend.engine, slow ? 'It' : 'This browser');
  if (!why && !slow) return null;
  const n = slow && grpoSteps !== null ? fewerSteps(pace.msPerStep!, grpoSteps) : null;
  return (
    <p className="status-note status-slow">
      {slow}
      {why && slow && ' '}
      {why}
      {n !== null && (
        <>
          {' '}
          A run of {grpoSteps} GRPO steps takes {aboutDuration(grpoSteps! * pace.msPerStep!)};{' '}
          {fewerStepsHref ? (
            <a href={fewerStepsHref(n)}>
              a run of {n} step{n > 1 && 's'}
            </a>
          ) : (
            `a run of ${n} step${n > 1 ? 's' : ''} (the steps setting)`
          )}{' '}
          {aboutDuration(n * pace.msPerStep!)}.
        </>
      )}
      {slow && ` ${stillServes(bandDrawn)}`}
    </p>
  );
}

/** Where a run in GRPO stands for the time left: its latest record, or before one a GRPO record in flight. */
function stageAt(p: Props, pace: Pace): { stage: Stage; step: number; steps: number } | null {
  const f = pace.inFlight;
  if (f && f.stage !== p.position?.stage)
    return f.stage === 'grpo' && p.grpoSteps !== null ? { stage: 'grpo', step: f.step, steps: p.grpoSteps } : null;
  return p.position;
}

/**
 * The run's state in a word, where a Step left it, who holds it, loading, the stage's step and,
 * while it trains, the time left and how far a step that reports its parts has got.
 */
function RunLine(p: Props & { pace: Pace }) {
  const { status, position, holders, loadingMessage, stagesAfter, inSequence, pace } = p;
  const at = stageAt(p, pace);
  const left = status === 'running' && at ? timeLeftText(at, pace.msPerStep, stagesAfter, pace.inFlight) : null;
  const flight = pace.inFlight && status !== 'paused' && LIVE.includes(status) ? pace.inFlight : null;
  return (
    <p className="status-line">
      <span className={`status-word state-${status}`} role="status">
        {WORD[status]}
      </span>
      {/* "Paused after GRPO step 3": where a Step (or Pause) left the run; "Pausing… after step 1, about 2 min". */}
      <span className="status-after" aria-live="polite">
        {status === 'paused' && position
          ? `after ${stageWord(position.stage)} step ${position.step}`
          : status === 'stepping'
            ? 'one step, then it pauses'
            : status === 'pausing' && flight && flight.leftMs > 0
              ? `after step ${flight.step}, ${aboutDuration(flight.leftMs)}`
              : ''}
      </span>
      {/* Every holder, and only those, in one sentence: the run goes on when the last lets go. */}
      <span className="status-held" aria-live="polite">
        {(status === 'paused' || status === 'pausing') && holders.length > 0 && (
          <>
            {holders.map((h, i) => (
              <Fragment key={h}>
                {i > 0 && ' and '}
                <span className="status-why" data-holder={h}>
                  {HELD_BY[h]}
                </span>
              </Fragment>
            ))}
            : it goes on when {holders.map((h) => LET_GO[h]).join(' and ')}.
          </>
        )}
      </span>
      {status === 'loading' && (
        <>
          <progress aria-label="Loading TensorFlow.js and the checkpoint" />
          <span>{loadingMessage ?? 'Loading TensorFlow.js and the agent checkpoint…'}</span>
        </>
      )}
      {position && (
        <span data-testid="status-step">
          {STAGE_NAME[position.stage]} · step {position.step} of {position.steps}
        </span>
      )}
      {inSequence && <span className="status-sequence"> · {inSequence}</span>}
      {flight && <span className="status-flight"> · {inFlightText(flight)}</span>}
      {left && <span className="status-left"> · {left}</span>}
    </p>
  );
}

/**
 * The backend in one short line — "WebAssembly, 120 ms a step · why" — and, one click away, why
 * it was chosen, what loading and the warm-up took, and why not the others.
 */
function BackendLine({ backend, ready, pace }: { backend: BackendInfo; ready: ReadyInfo | null; pace: Pace }) {
  const ms = pace.msPerStep;
  return (
    <details className="status-backend">
      <summary>
        <strong>{BACKEND_LABEL[backend.backend]}</strong>
        {ms !== null && (
          <span className="status-speed">
            , {stepTime(ms)} a step{pace.estimated && ' (estimated)'}
          </span>
        )}{' '}
        <span className="status-why-backend">· why</span>
      </summary>
      <p className="status-reason">
        {backend.reason}
        {ready && ready.loadMs > 0 && <> Loaded in {(ready.loadMs / 1000).toFixed(1)} s.</>}
        {ready?.warmUp && <> {warmUpSentence(ready.warmUp)}</>}
      </p>
      {backend.skipped.length > 0 && (
        <ul className="status-skipped" aria-label="Why not the other backends">
          {backend.skipped.map((s) => (
            <li key={s.backend}>
              {BACKEND_LABEL[s.backend]}: {s.reason}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
