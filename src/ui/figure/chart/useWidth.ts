/**
 * The width of an element, kept current with a ResizeObserver (charts resize with their container).
 * The first width comes from the observer too, after the browser's own layout, not from reading
 * `clientWidth` in a layout effect: that read forced a layout of the whole page inside React's
 * commit, which made the task that mounts the GRPO step's charts one long task (up to ~60 ms on two
 * busy cores). Until the observer reports, the chart draws at `fallback`.
 */
import { useRef, useState, type RefObject } from 'react';
import { useClientLayoutEffect } from '../../useClientLayoutEffect';

export function useWidth<T extends HTMLElement>(fallback: number): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useClientLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    // No observer (jsdom): the one read there is.
    if (typeof ResizeObserver === 'undefined') return setWidth(el.clientWidth || fallback);
    let frame = 0;
    const observer = new ResizeObserver(([entry]) => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setWidth(Math.round(entry!.contentRect.width) || fallback));
    });
    observer.observe(el);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
  }, [fallback]);
  return [ref, width];
}
