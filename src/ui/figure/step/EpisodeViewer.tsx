/**
 * The latest step's episodes, one group (one sum, 8 episodes) at a time, with reward and
 * advantage. It says what the run's configuration trains on: with masking off the calculator's
 * characters are trained on too; with the raw reward, the advantage is the reward. Each
 * character shows its push (PushTranscript), the shown one's numbers beside it (PushDetail),
 * and the group's arithmetic follows the table.
 */
import { memo, useState } from 'react';
import { GRPO } from '../../../config';
import type { RunConfig } from '../../../pipeline/settings';
import type { GrpoStepView } from '../../../protocol/episode-view';
import type { EpisodeView } from '../../../protocol/episode-view';
import { rewardedByBug } from '../../../env/grader';
import { GradedBy } from './GradedBy';
import { GroupArithmetic } from './GroupArithmetic';
import { PushDetail } from './PushDetail';
import { episodeLine, pushChars, type PushChar } from './push-view';
import { firstKey, keyOf, PushTranscript } from './PushTranscript';
import { AUTHOR_LABEL, Transcript } from './Transcript';

const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;

interface Props {
  record: GrpoStepView | null;
  /** The run's configuration (null before any run: the plate's). */
  config: Pick<RunConfig, 'masking' | 'advantage' | 'grader'> | null;
  groupSize?: number;
}

export const EpisodeViewer = memo(function EpisodeViewer({ record, config, groupSize = GRPO.episodesPerSum }: Props) {
  const masking = config?.masking ?? true;
  const raw = config?.advantage === 'raw';
  const [group, setGroup] = useState(0);
  const groups = record ? Math.floor(record.episodes.length / groupSize) : 0;
  const g = Math.min(group, Math.max(0, groups - 1));
  const episodes = record?.episodes.slice(g * groupSize, (g + 1) * groupSize) ?? [];
  const focus = usePushFocus(`${record?.step ?? -1}:${g}`, episodes);
  const push = episodes.some((e) => e.logp);
  return (
    <section className="episodes" aria-label="Episodes of the latest step">
      <EpisodesHead record={record} g={g} groups={groups} sum={episodes[0]?.sum} onGroup={setGroup} />
      <EpisodeLegend masking={masking} />
      <GradedBy grader={config?.grader ?? 'exact'} record={record} />
      {push && (
        <p className="push-hint">
          Tap or point at a character, or Tab to one and use the arrow keys, to see its probability before and after
          this step’s update.
        </p>
      )}
      {episodes.length === 0 ? (
        <p className="episodes-empty">The sampled episodes appear here once the first GRPO step is done.</p>
      ) : (
        <div className="push-group">
          <EpisodeTable episodes={episodes} raw={raw} focus={focus} />
        </div>
      )}
      <GroupArithmetic episodes={episodes} kind={raw ? 'raw' : 'group'} />
    </section>
  );
});

/**
 * The push's roving tab stop and the character shown (tapped, pointed at or focused), both
 * forgotten when another group or step is `shown`; and ‹ and › through the shown character's
 * episode in reading order (they stay in its row, so the button pressed stays put).
 */
function usePushFocus(shown: string, episodes: readonly EpisodeView[]) {
  const [focus, setFocus] = useState<{ shown: string; key: string; char: PushChar } | null>(null);
  const here = focus?.shown === shown ? focus : null;
  const active = here?.key ?? firstKey(episodes);
  const row = here ? Number(here.key.split(':')[0]) : -1;
  const order = here && episodes[row] ? pushChars(episodes[row]).map((char) => ({ key: keyOf(row, char), char })) : [];
  const at = order.findIndex((o) => o.key === here?.key);
  const move = (by: -1 | 1) => {
    const next = order[at + by];
    if (next) setFocus({ shown, ...next });
  };
  const show = (key: string, char: PushChar) => setFocus({ shown, key, char });
  return { here, active, row, canMove: { back: at > 0, on: at < order.length - 1 }, move, show };
}

type PushFocus = ReturnType<typeof usePushFocus>;

interface HeadProps {
  record: GrpoStepView | null;
  /** The group shown, of `groups`, and its sum. */
  g: number;
  groups: number;
  sum: EpisodeView['sum'] | undefined;
  onGroup: (group: number) => void;
}

function EpisodesHead({ record, g, groups, sum, onGroup }: HeadProps) {
  return (
    <header className="episodes-head">
      <h3>Episodes{record && record.episodes.length > 0 ? ` of step ${record.step}` : ''}</h3>
      <div className="group-nav" role="group" aria-label="Choose a group">
        {/* aria-disabled, not disabled: a focused button that disables itself would drop focus to the page. */}
        <button
          type="button"
          onClick={() => onGroup(Math.max(0, g - 1))}
          aria-disabled={g === 0 || groups === 0}
          aria-label="Previous group"
        >
          ‹
        </button>
        <span aria-live="polite">
          {groups > 0 ? `group ${g + 1} of ${groups}` : 'no episodes yet'}
          {sum && `: ${sum.a}+${sum.b}`}
        </span>
        <button
          type="button"
          onClick={() => onGroup(Math.max(0, Math.min(groups - 1, g + 1)))}
          aria-disabled={g >= groups - 1}
          aria-label="Next group"
        >
          ›
        </button>
      </div>
    </header>
  );
}

/** Who wrote each character, the calculator's lie, and the push's underlines, each by example. */
function EpisodeLegend({ masking }: { masking: boolean }) {
  return (
    <ul className="legend episode-legend" aria-label="Who wrote each character">
      {(['p', 'm', 'e'] as const).map((a) => (
        <li key={a}>
          <code className="transcript">
            <span className={`by-${a}${a === 'e' && !masking ? ' trained' : ''}`}>
              {a === 'p' ? '^23+45=' : a === 'm' ? 'B23+45|' : '68|'}
            </span>
          </code>{' '}
          {a === 'e' && !masking ? 'environment’s characters (trained on too: masking is off)' : AUTHOR_LABEL[a]}
        </li>
      ))}
      <li>
        <code className="transcript">
          <span className="by-e lie">71|</span>
        </code>{' '}
        the calculator lied
      </li>
      <li className="legend-push">
        <code className="transcript push">
          <span className="by-m trained push-up">B</span>
        </code>{' '}
        solid underline: the character became more likely in the update;{' '}
        <code className="transcript push">
          <span className="by-m trained push-down">B</span>
        </code>{' '}
        dotted: less likely; thicker: it moved by more than a tenth
      </li>
    </ul>
  );
}

function EpisodeTable({ episodes, raw, focus }: { episodes: readonly EpisodeView[]; raw: boolean; focus: PushFocus }) {
  return (
    <table className="episode-table">
      <thead>
        <tr>
          <th scope="col">transcript</th>
          <th scope="col">reward</th>
          <th scope="col">{raw ? 'advantage (the reward itself)' : 'advantage'}</th>
        </tr>
      </thead>
      <tbody>
        {episodes.map((e, i) => (
          <EpisodeRow key={i} episode={e} row={i} focus={focus} />
        ))}
      </tbody>
    </table>
  );
}

/** An episode's transcript (with its push, when it has one), its notes, reward and advantage. */
function EpisodeRow({ episode: e, row: i, focus }: { episode: EpisodeView; row: number; focus: PushFocus }) {
  const { here } = focus;
  return (
    <>
      <tr className={e.reward > 0 ? `rewarded${rewardedByBug(e) ? ' by-bug' : ''}` : undefined}>
        <td>
          {e.logp ? (
            <PushTranscript episode={e} row={i} active={focus.active} shown={here?.key ?? null} onShow={focus.show} />
          ) : (
            <Transcript episode={e} />
          )}
          {e.lied && <span className="lie-note"> calculator lied</span>}
          {e.reason !== 'answered' && <span className="reason"> {e.reason}</span>}
          {rewardedByBug(e) && <span className="bug-note"> rewarded by the bug</span>}
          {e.logp && <span className="push-line">{episodeLine(e)}</span>}
        </td>
        <td className="num">{e.reward}</td>
        <td className={`num ${e.advantage > 0 ? 'pos' : e.advantage < 0 ? 'neg' : ''}`}>{signed(e.advantage)}</td>
      </tr>
      {/* The shown character's numbers, right under its episode, the table's width. */}
      {here && focus.row === i && (
        <tr className="push-detail-row">
          <td colSpan={3}>
            <PushDetail char={here.char} onMove={focus.move} canMove={focus.canMove} />
          </td>
        </tr>
      )}
    </>
  );
}
