/**
 * The plate's thesis, runnable: "the same algorithm, a longer episode", set beside the paragraph
 * that says what grows with the episode. The closing claims are measured with one agent held
 * fixed, each as a small chart against the number of calls (the reference seeds' spread and
 * mean, the reader's runs as marks) and in a table that says, in words, whether each shows; then
 * carried to the plate's scale by a stated model (ScaleCharts). One click away, the reader runs
 * it: the held-fixed agent on every length with one button, or a world, its agent and the
 * calculator's speed. The reference runs are fetched as the section comes near the screen, so a
 * reader who reads down sees them.
 */
import { memo, useEffect, useId, useRef } from 'react';
import type { RunSequence } from '../../../client/run-sequence';
import { callsAdjective, callsWords, isPlateWorld, WORLDS } from '../../../env/world';
import { withPlayableAgent, type RunSettings } from '../../../pipeline/settings';
import { useNear } from '../../useNear';
import { PERCENT, type YAxis } from '../chart/axes';
import {
  CLAIM_AGENT,
  CLAIM_LENGTHS,
  sequenceWords,
  claimRows,
  claimTrend,
  claimValue,
  yourSettingsWords,
  type ClaimKey,
  type ClaimRow,
} from './longer-episode';
import { bandNotShown, type ReferenceRuns, type ReferenceState } from '../reference';
import { SettingRadios, SettingSelect } from '../SettingControl';
import { TrendChart } from './TrendChart';
import { ScaleCharts } from './ScaleCharts';
import { Part, PartLink } from '../parts/Part';
import { sameGrpoSide, toneOf, type RunView, type WorkerStatus } from '../types';

interface Props {
  status: WorkerStatus;
  run: RunView | null;
  /** The earlier runs, oldest first: with the live one, the reader's runs a claim can read. */
  previous: readonly RunView[];
  settings: RunSettings;
  onSettings: (s: RunSettings) => void;
  /** The held-fixed agent's reference runs (on every length): null while on their way. */
  reference: ReferenceState;
  /** The section came near the screen: its reference runs are wanted. */
  onNear: () => void;
  /** Run every length: the latest such sequence, if any. */
  sequence: RunSequence | null;
  onRunEveryLength: () => void;
}

/**
 * Half a viewport above and below the screen, about where the browser lays out a far part
 * (content-visibility): a reader who scrolls to the section finds it filled, and one who only
 * watches the charts (1.7 viewports above it at 1280 × 900) fetches nothing.
 */
const CLOSE = '50% 0px';

const SMALL_PERCENT: YAxis = { ...PERCENT, ticks: [0, 0.5, 1] };
const RATIO: YAxis = { max: 1.2, format: (v) => v.toFixed(2), ticks: [0, 0.4, 0.8, 1.2] };

/** The reader's runs, oldest first, the live one last. */
const runsOf = (p: Pick<Props, 'run' | 'previous'>): RunView[] => [
  ...p.previous.filter((r) => r.runId !== p.run?.runId),
  ...(p.run ? [p.run] : []),
];

/** The lengths in words, as the button and the status say them: "one call, then two calls". */
const lengthsWords = CLAIM_LENGTHS.map(callsWords).join(', then ');
/**
 * The button's name: it says it runs every length.
 * @internal A test seam: exported for the browser tests that press it.
 */
export const RUN_EVERY_LENGTH =
  CLAIM_LENGTHS.length === 2 ? `Run both: ${lengthsWords}` : `Run every length: ${lengthsWords}`;

export const LongerEpisode = memo(function LongerEpisode(p: Props) {
  const head = useId(); // ids must not collide with a second plate on the page
  const box = useRef<HTMLElement>(null);
  const near = useNear(box, CLOSE);
  const { onNear } = p;
  useEffect(() => {
    if (near) onNear();
    // Print lays out every part: the file is asked for then too (it may not arrive before the paper).
    const printing = () => onNear();
    window.addEventListener('beforeprint', printing);
    return () => window.removeEventListener('beforeprint', printing);
  }, [near, onNear]);
  const shown = p.run?.config ?? p.settings;
  const runs = runsOf(p);
  const ref = p.reference && 'runs' in p.reference ? p.reference.runs : null;
  const rows = claimRows(ref, runs);
  return (
    <section className="longer-episode" aria-labelledby={head} ref={box}>
      <h4 className="diagnostics-title" id={head}>
        The closing claims, measured
      </h4>
      <ReferenceNote reference={p.reference} />
      <ClaimCharts {...p} runs={runs} faulty={shown.faulty} refRuns={ref} rows={rows} />
      <ClaimsTable {...p} runs={runs} refRuns={ref} rows={rows} />
      <ScaleCharts reference={p.reference} />
      <p className="longer-episode-cost">
        Sampling becomes the dominant cost: with an instant calculator sampling’s share of a step barely moves between
        the lengths, because the update grows with the episode too. Choose a slow tool (<PartLink to="run-yourself" />)
        and watch <PartLink to="time">where a step’s time goes</PartLink>: the batch waits on the calculator at every
        call, and a longer episode waits at each of its calls.
      </p>
      <Part
        id="run-yourself"
        level={5}
        headline={sequenceWords(p.sequence) ? `training ${sequenceWords(p.sequence)}` : null}
      >
        <RunYourself {...p} rows={rows} shown={shown} />
      </Part>
    </section>
  );
}, sameGrpoSide);

/** The worlds, the controls that pick one, its agent and the calculator's speed, and Run every length. */
function RunYourself(p: Props & { rows: ClaimRow[]; shown: RunSettings }) {
  return (
    <>
      <p className="longer-episode-note">
        One call, the plate’s: <code>{WORLDS['one-call'].example}</code>. Two calls, on three-term sums:{' '}
        <code>{WORLDS['two-calls'].example}</code> — the model adds the first two terms, then the third to the result.
        Three calls, on four-term sums: <code>{WORLDS['three-calls'].example}</code>. GRPO is the same. The plate’s
        agent plays one call only; the {callsAdjective(CLAIM_AGENT)} agent, fine-tuned on every length, plays each, so
        with it the lengths differ in the episode alone.
      </p>
      <WorldControls {...p} />
      <p className="longer-episode-expect" data-testid="episode-note">
        {expectation(p.shown)}
      </p>
      <RunEveryLength {...p} />
    </>
  );
}

/** The world, its agent and the calculator's speed. */
function WorldControls(p: Props) {
  const off = p.status === 'dead';
  return (
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
  );
}

/** One button for the reader's own comparison: the held-fixed agent on every length, with the settings as set. */
function RunEveryLength(p: Props & { rows: ClaimRow[] }) {
  const q = p.sequence;
  const at = sequenceWords(q);
  // After a run of every length, the rows it could not fill: those of the other calculator.
  const empty = p.rows.filter((r) => r.lengths.some((l) => l.yours === null)).map((r) => r.what);
  const after =
    q?.state === 'done' && empty.length > 0
      ? `Your runs fill the “you” figures. ${empty.length} row${empty.length === 1 ? '' : 's'} need${empty.length === 1 ? 's' : ''} the other calculator too (${empty.join('; ')}): switch the faulty calculator ${p.settings.faulty ? 'off' : 'on'} and run again.`
      : null;
  return (
    <div className="run-every-length">
      <button
        type="button"
        className="run-lengths"
        disabled={p.status === 'dead' || q?.state === 'running'}
        onClick={p.onRunEveryLength}
      >
        {RUN_EVERY_LENGTH}
      </button>{' '}
      <span className="run-lengths-note" role="status">
        {at
          ? `Training ${at}.`
          : (after ??
            `The ${callsAdjective(CLAIM_AGENT)} agent, a run a length, with the seed and settings as set: your figures fill the table and the charts.`)}
      </span>
    </div>
  );
}

/** While the file is on its way nothing needs saying (the cells say "…"); if it cannot come, the section says so, and what still works. */
function ReferenceNote({ reference }: { reference: ReferenceState }) {
  if (reference && 'unavailable' in reference)
    return (
      <p className="claims-unavailable" role="note">
        {bandNotShown(reference.why)} The claims’ reference figures and bars are left out; your own runs still fill the
        table’s “you” figures and the charts’ marks, and every other part of the figure works.
      </p>
    );
  // Printed before the file came: said on paper, where "…" would be read as a figure.
  return reference === null ? (
    <p className="print-only">The reference runs had not arrived when this page was printed.</p>
  ) : null;
}

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
      'Rewards become sparser: the share of a step’s 8 sums whose episodes all failed — no reward in the group, nothing to learn from. Look for more such groups with every call.',
  },
  {
    key: 'pushedDown',
    name: 'Correct first calls pushed down',
    y: SMALL_PERCENT,
    watch:
      'Credit is spread over every action: of the episodes whose first call was right, the share the update made less likely — the episode failed later, and its advantage falls on the right call too. Look for more with every call.',
  },
  {
    key: 'faultyCap',
    name: 'Faulty ÷ reliable reward',
    y: RATIO,
    watch:
      'The environment’s randomness enters every gradient: the faulty calculator’s reward over the reliable one’s. Each call can lie, so each call keeps about 0.7 of the reward: the dashed line is 0.7 to the power of the calls.',
  },
];

/** Each claim as a small chart against the number of calls. */
type WithRuns = Props & { runs: RunView[]; refRuns: ReferenceRuns | null };

function ClaimCharts(p: WithRuns & { faulty: boolean; rows: ClaimRow[] }) {
  // The seeds the reference runs hold (the table's rows have them).
  const seeds = Math.min(...p.rows[0]!.lengths.map((l) => l.bySeed.size));
  return (
    <>
      <p className="claim-key">
        Each figure is a mean over a run’s GRPO steps. Grey: our reference runs (
        {seeds > 0 ? `${seeds} seeds` : 'on their way'}: the dot is their mean, the bar their spread); ◆ your runs, over
        their steps so far.
      </p>
      <div className="claim-charts" data-testid="claim-charts">
        {CHARTS.map((c) => (
          <ClaimChart key={c.key} {...p} chart={c} />
        ))}
      </div>
    </>
  );
}

function ClaimChart({ chart: c, ...p }: WithRuns & { faulty: boolean; chart: ChartSpec }) {
  const captionId = useId();
  // The cap is both calculators' by definition; the others follow the calculator shown.
  const faulty = c.key === 'faultyCap' ? false : p.faulty;
  const points = claimTrend(p.refRuns, p.runs, c.key, faulty);
  const calculator = c.key === 'faultyCap' ? '' : ` (${toneOf(faulty)})`;
  return (
    <div className="vital claim-chart" data-testid={`claim-chart-${c.key}`}>
      <p className="vital-name">
        {c.name}
        {calculator}
      </p>
      <TrendChart
        name={`${c.name}${calculator}`}
        points={points}
        y={c.y}
        tone={toneOf(faulty)}
        capLine={c.key === 'faultyCap'}
        captionId={captionId}
      />
      <p className="vital-watch chart-caption" id={captionId}>
        {c.watch}
      </p>
    </div>
  );
}

/** The closing claims' figures: the same agent at every length, ours and the reader's, and whether each shows. */
function ClaimsTable(p: WithRuns & { rows: ClaimRow[] }) {
  const { rows } = p;
  const settings = yourSettingsWords(p.runs);
  return (
    <div
      className={p.reference === null ? 'claims-wrap coming' : 'claims-wrap'}
      role="region"
      aria-label="What grows with the episode"
      tabIndex={0}
    >
      <table className="claims" data-testid="claims">
        <caption>
          What grows with the episode, the agent held fixed: the {callsAdjective(CLAIM_AGENT)} agent on every length,
          from our reference runs (precomputed, seeds 1–5, the plate’s settings) and, marked “you”, from your runs with
          it{settings ? ` (${settings})` : ''}. Every figure is a mean over a run’s GRPO steps — the reference runs’ 40,
          yours so far — then over the seeds.
        </caption>
        <thead>
          <tr>
            <th scope="col">The plate says</th>
            <th scope="col">Measured (mean over the steps)</th>
            {CLAIM_LENGTHS.map((e) => (
              <th scope="col" key={e}>
                {callsWords(e)}
              </th>
            ))}
            <th scope="col">Does it show?</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <ClaimTableRow key={r.key} row={r} state={p.refRuns ? 'in' : p.reference ? 'unavailable' : 'coming'} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The reference figures' state: in, on their way ("…"), or not to come ("—", said above the charts). */
function ClaimTableRow({ row: r, state }: { row: ClaimRow; state: 'in' | 'coming' | 'unavailable' }) {
  return (
    <tr data-claim={r.key} className={r.against.length > 0 ? 'claim-against' : undefined}>
      <td className="claim-says">{r.claim}</td>
      <th scope="row">{r.what}</th>
      {r.lengths.map((l) => (
        <td key={l.episode} className="claim-length" data-length={callsWords(l.episode)}>
          <span className="claim-ref">{state === 'coming' ? '…' : claimValue(r.key, l.mean)}</span>
          {l.yours && <span className="claim-yours"> you {claimValue(r.key, l.yours.value)}</span>}
        </td>
      ))}
      <td className="claim-shows">{r.shows ?? (r.way ? '' : 'No claim: shown beside the failed groups.')}</td>
    </tr>
  );
}

/** What to expect of the world shown, in the plate's words where they fit. */
function expectation(s: RunSettings): string {
  const agent = callsAdjective(CLAIM_AGENT);
  if (isPlateWorld(s))
    return `The plate’s world: from the fine-tuned agent at 77% on held-out sums, 40 GRPO steps bring it to 83%. Pick more calls, or the ${agent} agent, to see what grows with the episode.`;
  if (s.episode === 'one-call')
    return `The ${agent} agent on one-call sums: the agent the claims hold fixed, on the plate’s episode. Set beside its runs on longer sums, the only difference is the episode’s length. Held-out success is greedy, on the one-call world’s 30 held-out sums; the plate’s numbers are its own agent’s, so none are marked.`;
  return (
    `${callsWords(s.episode).replace(/^./, (c) => c.toUpperCase())}: the difficulties grow with the episode. A group teaches nothing when all its episodes fail alike, and an episode that fails at a later call pushes down its correct first call. ` +
    (s.faulty
      ? 'With the faulty calculator each call can lie, so the reward’s cap falls to about 0.7 to the power of the calls of the reliable reward: noise in the environment is noise in the gradient.'
      : `Held-out success is greedy, on the ${callsAdjective(s.episode)} world’s own 30 held-out sums, with the reliable calculator.`)
  );
}
