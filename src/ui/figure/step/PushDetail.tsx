/**
 * The shown character's push, beside it (under its episode's transcript, in the same row): its
 * probability before → after the update, the sentence that says why, and ‹ › to move to the
 * character before or after — targets of 24 CSS px at least, the same walk a finger cannot
 * take on characters a few pixels wide (WCAG 2.2's 2.5.8, "equivalent" exception).
 */
import { prob, times, type PushChar } from './push-view';

interface Props {
  char: PushChar;
  /** Moves to the episode's character `by` places on. */
  onMove: (by: -1 | 1) => void;
  /** There is a character before, after this one in its episode. */
  canMove: { back: boolean; on: boolean };
}

export function PushDetail({ char: c, onMove, canMove }: Props) {
  return (
    <div className="push-detail">
      <p className="push-numbers" aria-live="polite">
        <button
          type="button"
          aria-label="The character before"
          aria-disabled={!canMove.back}
          onClick={() => canMove.back && onMove(-1)}
        >
          ‹
        </button>
        <span className="push-arrow">
          <code className={`transcript push-char by-${c.author}`}>{c.ch}</code>{' '}
          {c.trained ? `${prob(c.before)} → ${prob(c.after)} (${times(c.after / c.before)})` : 'not trained on'}
        </span>
        <button
          type="button"
          aria-label="The character after"
          aria-disabled={!canMove.on}
          onClick={() => canMove.on && onMove(1)}
        >
          ›
        </button>
      </p>
      <p className="push-sentence">{c.detail}</p>
    </div>
  );
}
