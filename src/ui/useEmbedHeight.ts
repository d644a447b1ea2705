/**
 * In an iframe (`?embed=1`), posts the page's height to the parent whenever it changes:
 *
 *   { type: 'plate-height', plate: 'XXVI.3', height: number }   // CSS pixels, integer
 *
 * The parent sizes the iframe to `height`. The message carries nothing private, so it is
 * posted to any origin.
 */
import { useEffect } from 'react';

export interface PlateHeightMessage {
  type: 'plate-height';
  plate: string;
  height: number;
}

export function useEmbedHeight(enabled: boolean, plate: string): void {
  useEffect(() => {
    if (!enabled || typeof window === 'undefined' || window.parent === window) return;
    const root = document.documentElement;
    let last = -1;
    const post = () => {
      const height = Math.ceil(root.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      const message: PlateHeightMessage = { type: 'plate-height', plate, height };
      window.parent.postMessage(message, '*');
    };
    post();
    const observer = new ResizeObserver(post);
    observer.observe(root);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [enabled, plate]);
}
