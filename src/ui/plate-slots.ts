/**
 * Where the figure's evidence sits beside the plate's words. The plate renders an empty slot
 * after each paragraph of its results ("The same algorithm, a longer episode"); the live figure,
 * rendered inside the plate's <figure>, fills the slot of the paragraph each part shows (a React
 * portal), so one container keeps the run and the text stays the editors' own, in its order.
 * Without a plate around it (the figure alone), the context is null and the figure keeps every
 * part in itself.
 */
import { createContext } from 'react';

/** The slots after the results' paragraphs, in the paragraphs' order (null until laid out). */
export const PlateSlots = createContext<readonly (HTMLElement | null)[] | null>(null);
