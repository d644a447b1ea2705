/**
 * The plate's thesis, runnable: "the same algorithm, a longer episode". The reader picks the
 * world — one call (the plate's) or two — which agent plays it, and how long the calculator
 * takes. The closing claims are measured with the agent held fixed: the two-call agent on
 * one-call sums beside the same agent on two-call sums, each claim as a small chart (both worlds'
 * reference bands per step, the reader's run over them) and as a table that says, in words,
 * where a claim does not show.
 */
import { memo, useId } from 'react';
import { isPlateWorld, WORLDS } from '../../env/world';
import { withPlayableAgent, type RunSettings } from '../../pipeline/settings';
import { PERCENT, type YAxis } from './chart/axes';
import { LineChart } from './LineChart';
import { claimCurve, claimRows, claimValue, yourClaimCurve, yourWorld, type ClaimKey } from './longer-episode';
import type { ReferenceRuns } from './reference';
import { SettingRadios, SettingSelect } from './SettingControl';
import { sameGrpoSide, toneOf, type RunView, type Series, type WorkerStatus } from './types';

interface Props {
  status: WorkerStatus;
  run: RunView | null;
  /** The earlier runs, oldest first: with the live one, the reader's runs a claim can read. */
  previous: readonly RunView[];
  settings: RunSettings;
  onSettings: (s: RunSettings) => void;
  /** The two-call agent's reference runs (on both worlds' sums), once loaded. */
  twoCallAgent: ReferenceRuns | null;
  frame: number;
  steps: number;
}

const SMALL_PERCENT: YAxis = { ...PERCENT, ticks: [0, 0.5, 1] };
const RATIO: YAxis = { max: 1.2, format: (v) => v.toFixed(1), ticks: [0, 0.4, 0.8, 1.2] };

/** The reader's runs, oldest first, the live one last. */
const runsOf = (p: Pick<Props, 'run' | 'previous'>): RunView[] => [
  ...p.previous.filter((r) => r.runId !== p.run?.runId),
  ...(p.run ? [p.run] : []),
];

export const LongerEpisode = memo(function LongerEpisode(p: Props) {
  const head = useId(); // ids must not collide with a second plate on the page
  const shown = p.run?.config ?? p.settings;
  const off = p.status === 'dead';
  const runs = runsOf(p);
  return (
    <section className="longer-episode" aria-labelledby={head}>
      <h4 className="diagnostics-title" id={head}>
        The same algorithm, a longer episode
      </h4>
      <p className="longer-episode-note">
        One call, the plate’s: <code>{WORLDS['one-call'].example}</code>. Two calls, on three-term sums:{' '}
        <code>{WORLDS['two-calls'].example}</code> — the model adds the first two terms, then the third to the result.
        GRPO is the same. The plate’s agent plays one call only; the two-call agent, fine-tuned on both kinds of sums,
        plays either, so with it the two worlds differ in the episode alone.
      </p>
      <div className="grpo-settings">
        <SettingRadios
          setting="episode"
          value={p.settings.episode}
          disabled={off}
          onChange={(episode) => p.onSettings(withPlayableAgent({ ...p.settings, episode }))}
        />
        <SettingRadios
          setting="agent"
          value={p.settings.agent}
          disabled={off}
          onChange={(agent) => p.onSettings({ ...p.settings, agent })}
          offered={(agent) => agent !== 'one-call' || p.settings.episode === 'one-call'}
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
      <ClaimCharts {...p} runs={runs} faulty={shown.faulty} />
      <ClaimsTable {...p} runs={runs} />
      <p className="longer-episode-cost">
        Sampling becomes the dominant cost: with an instant calculator sampling’s share of a step barely moves between
        the worlds, because the update grows with the episode too. Choose a slow tool and watch the time split: the
        batch waits on the calculator at every call, and the two-call world waits twice.
      </p>
    </section>
  );
}, sameGrpoSide);

interface ChartSpec {
  key: ClaimKey;
  name: string;
  y: YAxis;
  watch: string;
}

const CHARTS: readonly ChartSpec[] = [
  {
    key: 'allFail',
    name: 'Groups whose 8 episodes all failed',
    y: SMALL_PERCENT,
    watch:
      'Rewards become sparser: per step, the share of the 8 sums whose episodes all failed — no reward in the group, nothing to learn from. Two calls leave more such groups.',
  },
  {
    key: 'pushedDown',
    name: 'Correct first calls pushed down',
    y: SMALL_PERCENT,
    watch:
      'Credit is spread over every action: per step, of the episodes whose first call was right, the share the update made less likely — the episode failed later, and its advantage falls on the right call too. Two calls push down more.',
  },
  {
    key: 'faultyCap',
    name: 'Faulty ÷ reliable reward',
    y: RATIO,
    watch:
      'The environment’s randomness enters every gradient: the faulty calculator’s reward over the reliable one’s, each over the steps so far (its last point is the table’s figure). Each call can lie, so two calls keep about 0.7 × 0.7 where one keeps 0.7.',
  },
];

/** Each claim as a small chart: both worlds' reference bands and means per step, the reader's run over them. */
function ClaimCharts(p: Props & { runs: RunView[]; faulty: boolean }) {
  return (
    <div className="claim-charts" data-testid="claim-charts">
      {CHARTS.map((c) => (
        <ClaimChart key={c.key} {...p} chart={c} />
      ))}
    </div>
  );
}

/** A claim chart's curves: each world's reference mean (one call dashed), the reader's run on top. */
function claimSeries(p: Pick<Props, 'twoCallAgent'> & { runs: RunView[] }, key: ClaimKey, faulty: boolean) {
  const tone = toneOf(faulty);
  const curve = (w: RunSettings['episode']) => (p.twoCallAgent ? claimCurve(p.twoCallAgent, key, w, faulty) : null);
  const [one, two] = [curve('one-call'), curve('two-calls')];
  // The worlds' means in the ink's grey (one call dashed), the reader's run over them in its tone, with dots.
  const line = (id: string, label: string, dash: Series['dash'], points: Series['points'], dim = true): Series => ({
    id,
    label,
    tone,
    dim,
    dash,
    points,
  });
  const world = yourWorld(p.runs);
  const yours = yourClaimCurve(p.runs, key, faulty);
  const live =
    world && yours.length > 0 ? line(`yours-${key}`, `your run (${worldWords(world)})`, 'solid', yours, false) : null;
  return {
    series: [
      ...(one ? [line('one-call', 'one call, the same agent', 'dashed', one.mean)] : []),
      ...(two ? [line('two-calls', 'two calls', 'solid', two.mean)] : []),
      ...(live ? [live] : []),
    ],
    live,
    bands: [
      { kind: 'one-call', band: one?.band ?? [] },
      { kind: 'two-calls', band: two?.band ?? [] },
    ],
  };
}

function ClaimChart({ chart: c, ...p }: Props & { runs: RunView[]; faulty: boolean; chart: ChartSpec }) {
  const captionId = useId();
  // The cap is both calculators' by definition; the others follow the calculator shown.
  const faulty = c.key === 'faultyCap' ? false : p.faulty;
  const { series, live, bands } = claimSeries(p, c.key, faulty);
  const calculator = c.key === 'faultyCap' ? '' : ` (${toneOf(faulty)})`;
  return (
    <div className="vital claim-chart" data-testid={`claim-chart-${c.key}`}>
      <p className="vital-name">
        {c.name}
        {calculator}
      </p>
      <LineChart
        name={`${c.name}${calculator}`}
        frame={p.frame}
        steps={p.steps}
        series={series}
        live={live}
        bands={bands}
        markers={[]}
        height={140}
        y={c.y}
        captionId={captionId}
      />
      <p className="claim-key">
        <span className="key-two">— two calls</span> <span className="key-one">- - one call</span>, the same agent
        (seeds 1–5: band and mean){live ? '; dots: your run' : ''}
      </p>
      <p className="vital-watch chart-caption" id={captionId}>
        {c.watch}
      </p>
    </div>
  );
}

/** The closing claims' figures: the same agent on both lengths, beside the reader's run, and whether each shows. */
function ClaimsTable(p: Props & { runs: RunView[] }) {
  const rows = claimRows(p.twoCallAgent, p.runs);
  const world = yourWorld(p.runs);
  return (
    // Six columns: on a phone the table scrolls on its own, not the page.
    <div className="claims-wrap" role="region" aria-label="What grows with the episode" tabIndex={0}>
      <table className="claims" data-testid="claims">
        <caption>
          What grows with the episode, the agent held fixed: the two-call agent on one-call and on two-call sums, from
          our reference runs (precomputed, seeds 1–5, the plate’s settings
          {p.twoCallAgent ? '' : '; they are fetched when you pick two calls or the two-call agent'}) and from your run
          {world ? ` (${worldWords(world)}, the two-call agent)` : ' with the two-call agent'}. Every figure is a mean
          over a run’s GRPO steps — the reference runs’ 40, your run’s so far — then over the seeds.
        </caption>
        <thead>
          <tr>
            <th scope="col">The plate says</th>
            <th scope="col">Measured (mean over the steps)</th>
            <th scope="col">one call, the same agent</th>
            <th scope="col">two calls</th>
            <th scope="col">your run</th>
            <th scope="col">Does it show?</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-claim={r.key} className={r.against.length > 0 ? 'claim-against' : undefined}>
              <td>{r.claim}</td>
              <th scope="row">{r.what}</th>
              <td>{p.twoCallAgent ? claimValue(r.key, r.one) : '…'}</td>
              <td>{p.twoCallAgent ? claimValue(r.key, r.two) : '…'}</td>
              <td>{claimValue(r.key, r.yours)}</td>
              <td className="claim-shows">{r.shows ?? (r.way ? '' : 'No claim: shown beside the failed groups.')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const worldWords = (w: RunSettings['episode']) => (w === 'two-calls' ? 'two calls' : 'one call');

/** What to expect of the world shown, in the plate's words where they fit. */
function expectation(s: RunSettings): string {
  if (isPlateWorld(s))
    return 'The plate’s world: from the fine-tuned agent at 77% on held-out sums, 40 GRPO steps bring it to 83%. Pick two calls, or the two-call agent, to see what grows with the episode.';
  if (s.episode === 'one-call')
    return 'The two-call agent on one-call sums: the agent of the two-call world, on the plate’s episode. Set beside a two-call run, the only difference is the episode’s length. Held-out success is greedy, on the one-call world’s 30 held-out sums; the plate’s numbers are its own agent’s, so none are marked.';
  return (
    'Two calls: the difficulties grow with the episode. A group teaches nothing when all its episodes fail alike, and an episode that fails at its second call pushes down its correct first call. ' +
    (s.faulty
      ? 'With the faulty calculator each call can lie, so the reward’s cap falls to about 0.7 × 0.7 of the reliable reward, against 0.7 for one call: noise in the environment is noise in the gradient.'
      : 'Held-out success is greedy, on the two-call world’s own 30 held-out sums, with the reliable calculator.')
  );
}
