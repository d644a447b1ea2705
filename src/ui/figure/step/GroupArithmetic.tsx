/**
 * The shown group's arithmetic: its eight rewards become advantages — drawn, and written out
 * with the group's own numbers — and whether the update pushed the group the way its rewards
 * say. With every advantage 0 it says plainly that the sum taught nothing this step.
 */
import { Fragment } from 'react';
import { GRPO } from '../../../config';
import type { EpisodeView } from '../../../protocol/episode-view';
import type { Advantage } from '../../../config';
import { groupArithmetic } from './group-arithmetic';
import { GroupChart } from './GroupChart';
import { groupLede } from './push-view';

interface Props {
  episodes: readonly EpisodeView[];
  kind: Advantage;
}

export function GroupArithmetic({ episodes, kind }: Props) {
  if (episodes.length === 0) return null;
  const sum = `${episodes[0]!.sum.a}+${episodes[0]!.sum.b}`;
  const rewards = episodes.map((e) => e.reward);
  const advantages = episodes.map((e) => e.advantage);
  const g = groupArithmetic(rewards, advantages, kind, GRPO);
  const lede = groupLede(episodes);
  return (
    <section className="group-arithmetic" aria-label={`How the rewards of ${sum} became advantages`}>
      <h4>From rewards to advantages: {sum}</h4>
      <p className={`group-summary${g.taughtNothing ? ' nothing' : ''}`}>{g.summary}</p>
      <div className="group-body">
        <GroupChart rewards={rewards} advantages={advantages} kind={kind} label={sum} />
        <div className="group-formulas">
          {g.meanText && <p>{g.meanText}</p>}
          {g.stdText && <p>{g.stdText}</p>}
          {g.trlText && <p className="group-trl">{g.trlText}</p>}
          <ol>
            {g.lines.map((l, i) => (
              <li key={i}>
                <span className="episode-no">
                  episode {i + 1}, reward {l.reward}:
                </span>{' '}
                <Formula text={l.text} />
              </li>
            ))}
          </ol>
        </div>
      </div>
      {lede && <p className={`group-lede${lede.score > 0 ? '' : ' against'}`}>{lede.text}</p>}
    </section>
  );
}

/** "advantage = (1 − 0.875) / 0.331 = +0.38", breakable only after an "=": never inside an expression. */
function Formula({ text }: { text: string }) {
  const parts = text.split(' = ');
  return (
    <span className="formula">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && ' '}
          <span className="formula-part">{i < parts.length - 1 ? `${part} =` : part}</span>
        </Fragment>
      ))}
    </span>
  );
}
