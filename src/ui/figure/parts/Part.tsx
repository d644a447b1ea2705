/**
 * One of the figure's deeper parts: a native <details> (keyboard and screen readers know it; a
 * fragment, a link or a use opens it, useParts.ts) whose summary line says what the part holds
 * and, once a run has data, its headline figure. Its heading takes its level from where it sits:
 * 2 under the plate's title, 4 beside a paragraph of the results (under their h3), 5 inside a
 * part beside them. Folded, its
 * body is not rendered at all (no chart drawn for nobody) and print shows the summary line.
 */
import { useCallback, useContext, type MouseEvent, type ReactNode } from 'react';
import { PLATE_SETTINGS, SETTING_KEYS, type RunSettings } from '../../../pipeline/settings';
import { PART, partFragment, partMentions, partsOfSettings, type PartId } from './parts';
import { PartsContext } from './useParts';

interface Props {
  id: PartId;
  /** The headline figure once a run has one (or the part's settings), after what the part holds. */
  headline?: string | null;
  level: 2 | 4 | 5;
  children: ReactNode;
}

export function Part({ id, headline, level, children }: Props) {
  const parts = useContext(PartsContext);
  const open = parts?.isOpen(id) ?? true;
  const register = parts?.register;
  const ref = useCallback((el: HTMLElement | null) => register?.(id, el), [register, id]);
  const H = `h${level}` as const;
  return (
    <details
      ref={ref}
      className={`part part-${id}`}
      data-part={id}
      open={open}
      onToggle={(e) => parts?.set(id, e.currentTarget.open)}
    >
      <summary>
        <H className="part-title">{PART[id].title}</H>
        <span className="part-holds">{PART[id].holds}</span>
        {headline && <span className="part-headline">{headline}</span>}
      </summary>
      {open && <div className="part-body">{children}</div>}
    </details>
  );
}

/** A link to a part by its title: opens it and scrolls to it (a plain fragment link without a figure around it). */
export function PartLink({ to, children }: { to: PartId; children?: ReactNode }) {
  const parts = useContext(PartsContext);
  const follow = (e: MouseEvent) => {
    if (!parts) return;
    e.preventDefault();
    parts.reveal(to);
  };
  return (
    <a className="part-link" href={partFragment(to)} onClick={follow}>
      {children ?? PART[to].title}
    </a>
  );
}

/** A sentence of the figure's whose quoted part titles link to their parts (the quotes stay, around the link). */
export function WithPartLinks({ sentence }: { sentence: string }) {
  return partMentions(sentence).map((m, i) =>
    m.part ? (
      <span key={i}>
        “<PartLink to={m.part}>{m.text}</PartLink>”
      </span>
    ) : (
      <span key={i}>{m.text}</span>
    ),
  );
}

/** Where the settings that differ from the plate's are set: a link to each part that holds one. */
export function SettingsLinks({ settings }: { settings: RunSettings }) {
  const parts = partsOfSettings(SETTING_KEYS.filter((k) => settings[k] !== PLATE_SETTINGS[k]));
  if (parts.length === 0) return null;
  return (
    <p className="settings-links">
      Set in{' '}
      {parts.map((id, i) => (
        <span key={id}>
          {i > 0 && (i === parts.length - 1 ? ' and ' : ', ')}
          <PartLink to={id} />
        </span>
      ))}
      .
    </p>
  );
}
