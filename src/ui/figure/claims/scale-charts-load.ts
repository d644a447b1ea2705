/**
 * The scale charts (ScaleChartsDrawn.tsx, with rl/scale.ts): on the page a chunk of their own,
 * asked for when the claims' reference runs arrive, so a first visit does not carry them. The
 * package's build and the unit tests put scale-charts-load.eager.ts in this module's place
 * (eagerParts in vite.config.ts): the package ships one entry and one element, and a dynamic
 * import inlined into one file kept the side effects of all of d3's barrel (d3-transition among
 * them: +19 KB gzipped).
 */
import { lazy } from 'react';

export const ScaleChartsDrawn = lazy(() => import('./ScaleChartsDrawn').then((m) => ({ default: m.ScaleChartsDrawn })));
