/**
 * An episode's transcript with the push of its step: each character after the prompt carries
 * its probability before and after the update as its accessible name ("B 0.91 → 0.94"), is
 * underlined by which way it moved (solid up, dotted down: not by colour alone), and is shown
 * (marked, its numbers beside it: PushDetail) on a tap, the pointer or keyboard focus, until
 * another is. The environment's characters the loss did not cover are marked "not trained on".
 * One tab stop for the whole group (roving tabindex): the arrow keys move between characters
 * (left, right) and episodes (up, down), Home and End to a row's ends.
 */
import type { KeyboardEvent } from 'react';
import type { EpisodeView } from '../../../protocol/episode-view';
import { pushChars, type PushChar } from './push-view';

interface Props {
  episode: EpisodeView;
  /** This episode's row in the group. */
  row: number;
  /** The character that holds the group's tab stop, as "row:index". */
  active: string;
  /** The character shown (marked), if any. */
  shown: string | null;
  /** A character was tapped, pointed at or focused: it becomes the active one and is shown. */
  onShow: (key: string, char: PushChar) => void;
}

export const keyOf = (row: number, c: PushChar) => `${row}:${c.index}`;

export function PushTranscript({ episode, row, active, shown, onShow }: Props) {
  const chars = pushChars(episode);
  const promptEnd = chars[0]?.index ?? episode.text.length;
  const label = `Episode ${row + 1}, reward ${episode.reward}: each character’s probability before and after the update`;
  return (
    <code className="transcript push">
      <span className="by-p">{episode.text.slice(0, promptEnd)}</span>
      <span role="list" aria-label={label} data-row={row} onKeyDown={move}>
        {chars.map((c) => {
          const key = keyOf(row, c);
          const show = () => onShow(key, c);
          const cls = [
            `by-${c.author}`,
            c.trained ? `trained push-${c.shift}` : 'untrained',
            c.strong && c.trained ? 'strong' : '',
            c.author === 'e' && episode.lied ? 'lie' : '',
            key === shown ? 'shown' : '',
          ]
            .filter(Boolean)
            .join(' ');
          return (
            <span
              key={c.index}
              role="listitem"
              aria-label={c.name}
              className={cls}
              tabIndex={key === active ? 0 : -1}
              data-index={c.index}
              onFocus={show}
              onPointerEnter={show}
            >
              {c.ch}
            </span>
          );
        })}
      </span>
    </code>
  );
}

/** The first character of a group's first episode: the group's tab stop until the reader moves it. */
export const firstKey = (episodes: readonly EpisodeView[]): string => {
  const first = episodes[0] && pushChars(episodes[0])[0];
  return first ? `0:${first.index}` : '';
};

/** Arrow keys, Home and End move focus among the group's characters (the DOM holds the layout). */
function move(e: KeyboardEvent<HTMLElement>): void {
  const here = (e.target as HTMLElement).closest<HTMLElement>('[role="listitem"]');
  const list = e.currentTarget;
  const group = list.closest('.push-group');
  if (!here || !group) return;
  const items = (l: Element) => [...l.querySelectorAll<HTMLElement>('[role="listitem"]')];
  const rows = [...group.querySelectorAll<HTMLElement>('[role="list"][data-row]')];
  const mine = items(list);
  const i = mine.indexOf(here);
  const r = rows.indexOf(list);
  let next: HTMLElement | undefined;
  if (e.key === 'ArrowRight') next = mine[i + 1];
  else if (e.key === 'ArrowLeft') next = mine[i - 1];
  else if (e.key === 'Home') next = mine[0];
  else if (e.key === 'End') next = mine.at(-1);
  else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    const other = rows[r + (e.key === 'ArrowDown' ? 1 : -1)];
    const at = Number(here.dataset.index);
    // The character at the same place in the other episode, or the nearest one it has.
    next =
      other &&
      items(other).reduce<HTMLElement | undefined>(
        (best, c) =>
          !best || Math.abs(Number(c.dataset.index) - at) < Math.abs(Number(best.dataset.index) - at) ? c : best,
        undefined,
      );
  } else return;
  e.preventDefault();
  next?.focus();
}
