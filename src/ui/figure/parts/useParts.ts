/**
 * Which of the figure's parts are open, and the ways one opens besides its own summary: revealed
 * (opened and scrolled to: a link that names it, the URL's fragment on load or when it changes),
 * or opened where it stands (Step opens the step taken apart; a setting given by an option opens
 * the part its control lives in). With two plates on a page a fragment opens the first one's part.
 */
import { createContext, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { partOfFragment, type PartId } from './parts';

export interface Parts {
  isOpen(id: PartId): boolean;
  /** Opens or folds a part where it stands. */
  set(id: PartId, open: boolean): void;
  /** Opens a part and scrolls it into view, once it is laid out. */
  reveal(id: PartId): void;
  /** A part's element, as it mounts (null as it unmounts). */
  register(id: PartId, el: HTMLElement | null): void;
}

export const PartsContext = createContext<Parts | null>(null);

export function useParts(initiallyOpen: readonly PartId[]): Parts {
  const [open, setOpen] = useState<ReadonlySet<PartId>>(() => new Set(initiallyOpen));
  const [revealing, setRevealing] = useState<{ id: PartId } | null>(null);
  const elements = useRef(new Map<PartId, HTMLElement>());
  const set = useCallback(
    (id: PartId, now: boolean) =>
      setOpen((was) => {
        if (was.has(id) === now) return was;
        const next = new Set(was);
        if (now) next.add(id);
        else next.delete(id);
        return next;
      }),
    [],
  );
  const reveal = useCallback(
    (id: PartId) => {
      set(id, true);
      setRevealing({ id }); // a new object: revealing the same part again scrolls again
    },
    [set],
  );
  const register = useCallback((id: PartId, el: HTMLElement | null) => {
    if (el) elements.current.set(id, el);
    else elements.current.delete(id);
    // A part beside the plate's words mounts a render after the rest: a reveal waits for it.
    if (el) setRevealing((r) => (r && r.id === id ? { id } : r));
  }, []);

  useEffect(() => {
    const el = revealing && elements.current.get(revealing.id);
    if (!el) return;
    el.scrollIntoView({ block: 'start' });
    setRevealing(null);
  }, [revealing]);

  // The URL's fragment: on load, and whenever it changes.
  useEffect(() => {
    const follow = () => {
      const id = partOfFragment(location.hash);
      if (id && firstOnPage(id, elements.current.get(id))) reveal(id);
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [reveal]);

  return useMemo(() => ({ isOpen: (id) => open.has(id), set, reveal, register }), [open, set, reveal, register]);
}

/** This plate's part is the page's first of its name (not yet laid out counts as first: it is this plate's to reveal). */
function firstOnPage(id: PartId, el: HTMLElement | undefined): boolean {
  const first = document.querySelector(`[data-part="${id}"]`);
  return !el || !first || first === el;
}
