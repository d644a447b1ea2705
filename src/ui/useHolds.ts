/**
 * The page's own holds on a run: the figure out of view and the tab hidden, each taken by one
 * event and released by its opposite (src/client/worker-state.ts folds them with the reader's).
 */
import { useCallback, useEffect, type RefObject } from 'react';
import type { Holder } from '../client/worker-state';

/**
 * Whether the latest of a batch's entries for `target` intersects; undefined if it has none.
 * @internal A test seam: exported for its test.
 */
export const latestIntersecting = (
  entries: readonly Pick<IntersectionObserverEntry, 'target' | 'isIntersecting'>[],
  target: Element,
): boolean | undefined => entries.filter((e) => e.target === target).at(-1)?.isIntersecting;

const NONE: readonly (Element | null)[] = [];

/**
 * Calls `onChange` with whether `target` — or any of `also` — is within the viewport (grown by
 * `rootMargin`): once when watching starts, then at every change. One delivery can hold several
 * entries for an element — a full-page screenshot, a zoom or a rotation resizes the viewport and
 * back between two deliveries — and only the latest says where it is now. `onChange` should be
 * stable (useCallback), and `also` keep its identity: a new one restarts the observer.
 */
export function useInView(
  target: RefObject<Element | null>,
  onChange: (inView: boolean) => void,
  rootMargin = '0px',
  also: readonly (Element | null)[] = NONE,
): void {
  useEffect(() => {
    const el = target.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const watched = [el, ...also.filter((e): e is Element => e !== null)];
    const seen = new Map<Element, boolean>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const w of watched) {
          const now = latestIntersecting(entries, w);
          if (now !== undefined) seen.set(w, now);
        }
        if (entries.length > 0) onChange([...seen.values()].some(Boolean));
      },
      { threshold: 0, rootMargin },
    );
    for (const w of watched) observer.observe(w);
    return () => observer.disconnect();
  }, [target, onChange, rootMargin, also]);
}

/**
 * Holds the run while `target` and every part of the figure set beside the plate's words (`also`)
 * are out of view, and while the tab is hidden; `hold` and `release` must be stable. A reader who
 * presses Run every length beside the closing claims watches the run there, not in the figure.
 */
export function usePageHolds(
  target: RefObject<Element | null>,
  hold: (h: Holder) => void,
  release: (h: Holder) => void,
  also: readonly (Element | null)[] = NONE,
): void {
  const onView = useCallback(
    (inView: boolean) => (inView ? release('out of view') : hold('out of view')),
    [hold, release],
  );
  useInView(target, onView, '0px', also);
  useEffect(() => {
    if (typeof document === 'undefined') return;
    const onChange = () => (document.hidden ? hold('tab hidden') : release('tab hidden'));
    onChange();
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, [hold, release]);
}
