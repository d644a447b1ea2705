/**
 * Whether the figure (or a part of it) has come within two viewports of the screen, or the margin
 * given, as Distill's d-figure asks before it starts work: false until then (on the server and in the first render too, so
 * hydration matches), true from then on. Where there is no IntersectionObserver, true.
 */
import { useCallback, useState, type RefObject } from 'react';
import { useInView } from './useHolds';

/** Two viewports' height above and below the screen. */
const NEAR_MARGIN = '200% 0px';

/**
 * `margin`: how near counts, as IntersectionObserver's rootMargin (default two viewports); `also`:
 * more elements that count as the target (the figure's parts beside the plate's words).
 */
export function useNear(
  target: RefObject<Element | null>,
  margin = NEAR_MARGIN,
  also?: readonly (Element | null)[],
): boolean {
  const [near, setNear] = useState(() => typeof window !== 'undefined' && typeof IntersectionObserver === 'undefined');
  const onChange = useCallback((inView: boolean) => inView && setNear(true), []);
  useInView(target, onChange, margin, also);
  return near;
}
