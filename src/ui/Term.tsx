/**
 * A glossary term in the running text: hover or focus it to read its definition. The tooltip
 * is fixed-positioned and clamped to the viewport, so it never widens the page on a phone;
 * screen readers get the definition through aria-describedby (the glossary entry itself).
 */
import { useRef, useState, type CSSProperties } from 'react';
import { useClientLayoutEffect } from './useClientLayoutEffect';

interface Props {
  text: string;
  name: string;
  definition: string;
  describedBy: string;
}

const MARGIN = 8;

export function Term({ text, name, definition, describedBy }: Props) {
  const ref = useRef<HTMLSpanElement>(null);
  const tip = useRef<HTMLSpanElement>(null);
  const [open, setOpen] = useState(false);
  const [style, setStyle] = useState<CSSProperties>({ visibility: 'hidden' });

  useClientLayoutEffect(() => {
    if (!open || !ref.current || !tip.current) return;
    const place = () => {
      const anchor = ref.current!.getClientRects()[0] ?? ref.current!.getBoundingClientRect();
      const box = tip.current!.getBoundingClientRect();
      const vw = document.documentElement.clientWidth;
      const left = Math.max(MARGIN, Math.min(anchor.left, vw - box.width - MARGIN));
      const below = anchor.bottom + 6;
      const top = below + box.height > window.innerHeight - MARGIN ? anchor.top - box.height - 6 : below;
      setStyle({ left, top });
    };
    place();
    const close = () => setOpen(false);
    window.addEventListener('scroll', close, { passive: true, once: true });
    return () => window.removeEventListener('scroll', close);
  }, [open]);

  const show = () => {
    setStyle({ visibility: 'hidden' });
    setOpen(true);
  };
  return (
    <span
      ref={ref}
      className="term"
      tabIndex={0}
      aria-describedby={describedBy}
      onMouseEnter={show}
      onMouseLeave={() => setOpen(false)}
      onFocus={show}
      onBlur={() => setOpen(false)}
      onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
    >
      {text}
      {open && (
        <span ref={tip} className="term-tip" style={style} aria-hidden="true">
          <strong>{name}.</strong> {definition}
        </span>
      )}
    </span>
  );
}
