/**
 * Pauses training while the figure is off-screen or the tab is hidden, and resumes it when
 * both are back — only if it was this hook that paused it (a reader's own pause stays).
 * Returns why it paused, so the figure can say so.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { WorkerStatus } from './figure/types';

interface Args {
  target: RefObject<Element | null>;
  status: WorkerStatus;
  pause: () => void;
  resume: () => void;
}

export type AutoPauseReason = 'out of view' | 'tab hidden';

export function useAutoPause({ target, status, pause, resume }: Args): AutoPauseReason | null {
  const [onScreen, setOnScreen] = useState(true);
  const [tabVisible, setTabVisible] = useState(() => typeof document === 'undefined' || !document.hidden);
  const [autoPaused, setAutoPaused] = useState<AutoPauseReason | null>(null);
  const paused = useRef<AutoPauseReason | null>(null);

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

  // A reader who presses Resume (or Reset, or Run) takes over from the hook. (Before the
  // effect below, so a run that starts while out of sight is still paused by it.)
  useEffect(() => {
    if (paused.current && status !== 'paused' && status !== 'pausing') {
      paused.current = null;
      setAutoPaused(null);
    }
  }, [status]);

  const why: AutoPauseReason | null = !tabVisible ? 'tab hidden' : !onScreen ? 'out of view' : null;
  useEffect(() => {
    if (why && status === 'running') {
      paused.current = why;
      setAutoPaused(why);
      pause();
    } else if (why && paused.current && paused.current !== why) {
      paused.current = why; // still paused, for the other reason now
      setAutoPaused(why);
    } else if (!why && paused.current) {
      paused.current = null;
      setAutoPaused(null);
      if (status === 'paused' || status === 'pausing' || status === 'running') resume();
    }
  }, [why, status, pause, resume]);

  return autoPaused;
}
