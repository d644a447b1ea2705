/**
 * A part of the figure set beside the plate's paragraph it shows (plate-slots.ts): rendered into
 * the slot after that paragraph, set apart from the plate's words as the figure is. Without a
 * plate around the figure it stays in the figure; with one, it appears once the plate has laid
 * out its slot (the render after the figure's first).
 */
import { useContext, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { PlateSlots } from '../../plate-slots';

interface Props {
  /** The index of the results' paragraph (plate.longerEpisode.paragraphs), -1 for none. */
  paragraph: number;
  /** What the part shows, for assistive technology ("beside the text: …"). */
  label: string;
  /** Before any run the figure's print rules apply here too ('no-run'). */
  noRun: boolean;
  children: ReactNode;
}

export function Beside({ paragraph, label, noRun, children }: Props) {
  const slots = useContext(PlateSlots);
  const inFigure = slots === null || paragraph < 0;
  const slot = inFigure ? null : slots[paragraph];
  const aside = (
    <aside className={noRun ? 'figure-beside no-run' : 'figure-beside'} aria-label={label}>
      {children}
    </aside>
  );
  if (inFigure) return aside;
  return slot ? createPortal(aside, slot) : null;
}
