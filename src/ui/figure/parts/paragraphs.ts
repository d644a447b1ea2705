/** Which paragraph of the results each part beside the plate's words goes after, found by its words. Pure. */
import type { Paragraph } from '../../../plate/types';
import { plainText } from '../../inline';

/** The index of the first paragraph that holds `words`, or -1. */
export const paragraphWith = (paragraphs: readonly Paragraph[], words: string): number =>
  paragraphs.findIndex((p) => plainText(p).includes(words));

/**
 * The words of the results' paragraph each part shows: the plate's numbers beside "From the
 * fine-tuned agent at 77%…", the closing claims beside what grows with the episode, the time split
 * beside the speed sentence. An edit of the text that drops the words puts the part back in the figure.
 */
export const BESIDE = {
  numbers: 'From the fine-tuned agent at 77%',
  claims: 'The difficulties grow with the episode',
  time: 'its speed limits the sampling rate',
} as const;
