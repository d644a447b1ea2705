/**
 * The plate's thesis, runnable: "the same algorithm, a longer episode". The reader picks the
 * world — one call (the plate's) or two, each with its own fine-tuned agent — and how long the
 * calculator takes; the run's correct calls pushed down are drawn per step over the reference
 * band of its world, and a table sets the closing claims' figures one world beside the other,
 * from the reference runs of both and from the reader's run.
 */
import { memo, useId } from 'react';
import type { RunSettings } from '../../pipeline/settings';
import { WORLDS } from '../../env/world';
import { pct } from '../format';
import { PERCENT, type YAxis } from './chart/axes';
import { LineChart } from './LineChart';
import { referenceClaims, runClaims, type ClaimFigures } from './longer-episode';
import { referenceBand, type ReferenceRuns } from './reference';
import { SettingRadios, SettingSelect } from './SettingControl';
import { sameGrpoSide, toneOf, type RunView, type Series, type WorkerStatus } from './types';

interface Props {
  status: WorkerStatus;
  run: RunView | null;
  settings: RunSettings;
  onSettings: (s: RunSettings) => void;
  /** Each world's reference runs, once loaded. */
  oneCall: ReferenceRuns | null;
  twoCalls: ReferenceRuns | null;
  frame: number;
  steps: number;
}

const SMALL_PERCENT: YAxis = { ...PERCENT, ticks: [0, 0.5, 1] };

const ROWS: readonly { key: keyof Omit<ClaimFigures, 'seeds'>; claim: string; what: string }[] = [
  { key: 'reward', claim: 'Rewards become sparser', what: 'sampled reward, last 5 steps' },
  { key: 'zeroSpread', claim: '', what: 'groups that teach nothing (all 8 rewards equal)' },
  {
    key: 'pushedDown',
    claim: 'Credit is spread over every action',
    what: 'correct first calls pushed down (negative advantage)',
  },
  {
    key: 'faultyCap',
    claim: 'The environment’s randomness enters every gradient',
    what: 'faulty ÷ reliable reward, last 5 steps',
  },
];

const cell = (f: ClaimFigures | null, k: keyof Omit<ClaimFigures, 'seeds'>) => {
  const v = f?.[k];
  if (v === null || v === undefined) return '—';
  return k === 'faultyCap' ? v.toFixed(2) : pct(v);
};

export const LongerEpisode = memo(function LongerEpisode(p: Props) {
  const head = useId(); // ids must not collide with a second plate on the page
  const shown = p.run?.config ?? p.settings;
  const off = p.status === 'dead';
  return (
    <section className="longer-episode" aria-labelledby={head}>
      <h4 className="diagnostics-title" id={head}>
        The same algorithm, a longer episode
      </h4>
      <p className="longer-episode-note">
        One call, the plate’s: <code>{WORLDS['one-call'].example}</code>. Two calls, on three-term sums:{' '}
        <code>{WORLDS['two-calls'].example}</code> — the model adds the first two terms, then the third to the result.
        GRPO is the same; each world starts from its own fine-tuned agent, and the plate’s numbers are marked on the
        one-call world only.
      </p>
      <div className="grpo-settings">
        <SettingRadios
          setting="episode"
          value={p.settings.episode}
          disabled={off}
          onChange={(episode) => p.onSettings({ ...p.settings, episode })}
        />
        <SettingSelect
          setting="toolLatencyMs"
          value={p.settings.toolLatencyMs}
          disabled={off}
          onChange={(toolLatencyMs) => p.onSettings({ ...p.settings, toolLatencyMs })}
        />
      </div>
      <p className="longer-episode-expect" data-testid="episode-note">
        {expectation(shown)}
      </p>
      <PushedDownChart {...p} shown={shown} />
      <ClaimsTable {...p} />
      <p className="longer-episode-cost">
        Sampling becomes the dominant cost: with an instant calculator sampling’s share of a step barely moves between
        the worlds, because the update grows with the episode too. Choose a slow tool and watch the time split: the
        batch waits on the calculator at every call, and the two-call world waits twice.
      </p>
    </section>
  );
}, sameGrpoSide);

/** Correct first calls pushed down per step: the run's, over the reference band of its world. */
function PushedDownChart(p: Props & { shown: RunSettings }) {
  const reference = p.shown.episode === 'two-calls' ? p.twoCalls : p.oneCall;
  const band = reference ? referenceBand(reference, p.shown, 'correctCallsPushedDown') : [];
  const live: Series | null = p.run && {
    id: `run-${p.run.runId}-pushed-down`,
    label: 'correct first calls pushed down',
    tone: toneOf(p.run.config.faulty),
    dim: false,
    dash: 'solid',
    points: p.run.steps.flatMap((s) =>
      s.correctCallsPushedDown === null ? [] : [[s.step, s.correctCallsPushedDown] as [number, number]],
    ),
  };
  return (
    <div className="vital" data-testid="pushed-down-chart">
      <p className="vital-name">
        Correct first calls pushed down <code>correctCallsPushedDown</code>
      </p>
      <LineChart
        name="Correct first calls pushed down"
        frame={p.frame}
        steps={p.steps}
        series={live ? [live] : []}
        live={live}
        band={band}
        markers={[]}
        height={110}
        y={SMALL_PERCENT}
      />
      <p className="vital-watch">
        Of the episodes whose first call was right, the share the update made less likely: the episode failed later, and
        its advantage falls on every character the model wrote — the right call’s too.
      </p>
    </div>
  );
}

/** The closing claims' figures: each world's reference runs beside the reader's run. */
function ClaimsTable(p: Props) {
  const yours = p.run ? runClaims(p.run.steps) : null;
  const one = p.oneCall && referenceClaims(p.oneCall);
  const two = p.twoCalls && referenceClaims(p.twoCalls);
  return (
    // Five columns: on a phone the table scrolls on its own, not the page.
    <div className="claims-wrap" role="region" aria-label="What grows with the episode" tabIndex={0}>
      <table className="claims" data-testid="claims">
        <caption>
          What grows with the episode, from our reference runs (precomputed, the plate’s settings
          {two ? '' : '; the two-call world’s are fetched when you pick it'}) and from your run
          {p.run ? ` (${worldWords(p.run.config)})` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">The plate says</th>
            <th scope="col">Measured</th>
            <th scope="col">one call</th>
            <th scope="col">two calls</th>
            <th scope="col">your run</th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map((r) => (
            <tr key={r.key}>
              <td>{r.claim}</td>
              <th scope="row">{r.what}</th>
              <td>{cell(one, r.key)}</td>
              <td>{p.twoCalls ? cell(two, r.key) : '…'}</td>
              <td>{cell(yours, r.key)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const worldWords = (s: RunSettings) =>
  `${s.episode === 'two-calls' ? 'two calls' : 'one call'}, ${s.faulty ? 'faulty' : 'reliable'} calculator`;

/** What to expect of the world shown, in the plate's words where they fit. */
function expectation(s: RunSettings): string {
  if (s.episode === 'one-call')
    return 'The plate’s world: from the fine-tuned agent at 77% on held-out sums, 40 GRPO steps bring it to 83%. Pick two calls to see what grows with the episode.';
  return (
    'Two calls: the difficulties grow with the episode. A group teaches nothing when all its episodes fail alike, and an episode that fails at its second call pushes down its correct first call. ' +
    (s.faulty
      ? 'With the faulty calculator each call can lie, so the reward’s cap falls to about 0.7 × 0.7 of the reliable reward, against 0.7 for one call: noise in the environment is noise in the gradient.'
      : 'Held-out success is greedy, on the two-call world’s own 30 held-out sums, with the reliable calculator.')
  );
}
