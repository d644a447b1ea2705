/**
 * Pauses training while the figure is off-screen or the tab is hidden, and resumes it when
 * both are back — only if it was this hook that paused it (a reader's own pause stays).
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { TrainerStatus } from './figure/types';

interface Args {
  target: RefObject<Element | null>;
  status: TrainerStatus;
  pause: () => void;
  resume: () => void;
}

export function useAutoPause({ target, status, pause, resume }: Args): boolean {
  const [onScreen, setOnScreen] = useState(true);
  const [tabVisible, setTabVisible] = useState(() => typeof document === 'undefined' || !document.hidden);
  const autoPaused = useRef(false);

  useEffect(() => {
    const el = target.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setOnScreen(entry!.isIntersecting), { threshold: 0 });
    observer.observe(el);
    return () => observer.disconnect();
  }, [target]);

  useEffect(() => {
    const onChange = () => setTabVisible(!document.hidden);
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);

  const visible = onScreen && tabVisible;
  useEffect(() => {
    if (!visible && status === 'running') {
      autoPaused.current = true;
      pause();
    } else if (visible && autoPaused.current) {
      autoPaused.current = false;
      if (status === 'paused' || status === 'running') resume();
    }
  }, [visible, status, pause, resume]);
  return visible;
}
