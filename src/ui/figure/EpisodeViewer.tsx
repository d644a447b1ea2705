/**
 * The latest step's episodes, one group (one sum, 8 episodes) at a time, with reward and
 * advantage. It says what the run's configuration trains on: with masking off the calculator's
 * characters are trained on too; with the raw reward, the advantage is the reward. Each
 * character shows its push (PushTranscript), and the group's arithmetic follows the table.
 */
import { memo, useState } from 'react';
import { GRPO } from '../../config';
import type { RunConfig } from '../../protocol/messages';
import type { GrpoStepView } from '../../protocol/messages';
import { rewardedByBug } from '../../env/grader';
import { GradedBy } from './GradedBy';
import { GroupArithmetic } from './GroupArithmetic';
import { episodeLine } from './push-view';
import { firstKey, PushTranscript } from './PushTranscript';
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
  const sum = episodes[0]?.sum;
  // The push's roving tab stop and the sentence shown for the character under focus or pointer,
  // both forgotten when another group or step is shown.
  const shown = `${record?.step ?? -1}:${g}`;
  const [focus, setFocus] = useState<{ shown: string; key: string; detail: string } | null>(null);
  const here = focus?.shown === shown ? focus : null;
  const active = here?.key ?? firstKey(episodes);
  const push = episodes.some((e) => e.logp);
  return (
    <section className="episodes" aria-label="Episodes of the latest step">
      <header className="episodes-head">
        <h3>Episodes{record && record.episodes.length > 0 ? ` of step ${record.step}` : ''}</h3>
        <div className="group-nav" role="group" aria-label="Choose a group">
          {/* aria-disabled, not disabled: a focused button that disables itself would drop focus to the page. */}
          <button type="button" onClick={() => setGroup(Math.max(0, g - 1))} aria-disabled={g === 0 || groups === 0} aria-label="Previous group">
            ‹
          </button>
          <span aria-live="polite">
            {groups > 0 ? `group ${g + 1} of ${groups}` : 'no episodes yet'}
            {sum && `: ${sum.a}+${sum.b}`}
          </span>
          <button type="button" onClick={() => setGroup(Math.max(0, Math.min(groups - 1, g + 1)))} aria-disabled={g >= groups - 1} aria-label="Next group">
            ›
          </button>
        </div>
      </header>
      <ul className="legend episode-legend" aria-label="Who wrote each character">
        {(['p', 'm', 'e'] as const).map((a) => (
          <li key={a}>
            <code className="transcript">
              <span className={`by-${a}${a === 'e' && !masking ? ' trained' : ''}`}>{a === 'p' ? '^23+45=' : a === 'm' ? 'B23+45|' : '68|'}</span>
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
        <li>
          <code className="transcript push">
            <span className="by-m trained push-up">8</span>
          </code>{' '}
          more likely after the update (solid underline),{' '}
          <code className="transcript push">
            <span className="by-m trained push-down">8</span>
          </code>{' '}
          less likely (dotted); thicker when it moved by more than a tenth
        </li>
      </ul>
      <GradedBy grader={config?.grader ?? 'exact'} record={record} />
      {episodes.length === 0 ? (
        <p className="episodes-empty">The sampled episodes appear here once the first GRPO step is done.</p>
      ) : (
        <div className="push-group">
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
                <tr key={i} className={e.reward > 0 ? `rewarded${rewardedByBug(e) ? ' by-bug' : ''}` : undefined}>
                  <td>
                    {e.logp ? <PushTranscript episode={e} row={i} active={active} onShow={(key, detail) => setFocus({ shown, key, detail })} /> : <Transcript episode={e} />}
                    {e.lied && <span className="lie-note"> calculator lied</span>}
                    {e.reason !== 'answered' && <span className="reason"> {e.reason}</span>}
                    {rewardedByBug(e) && <span className="bug-note"> rewarded by the bug</span>}
                    {e.logp && <span className="push-line">{episodeLine(e)}</span>}
                  </td>
                  <td className="num">{e.reward}</td>
                  <td className={`num ${e.advantage > 0 ? 'pos' : e.advantage < 0 ? 'neg' : ''}`}>{signed(e.advantage)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {push && (
            <p className="push-detail">
              {here?.detail ?? 'Point at a character, or Tab to one and use the arrow keys, to see its probability before and after this step’s update.'}
            </p>
          )}
        </div>
      )}
      <GroupArithmetic episodes={episodes} kind={raw ? 'raw' : 'group'} />
    </section>
  );
});
