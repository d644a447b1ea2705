/** The one way the plate writes a fraction as a percentage: 0.8333 → "83%". */
import { format } from 'd3';

export const pct = format('.0%');
