/**
 * The scale charts' code (ScaleChartsDrawn.tsx, with rl/scale.ts): on the page a chunk of its own,
 * asked for when the claims' reference runs arrive, so a first visit does not carry it. The
 * package's build puts scale-charts-load.eager.ts in this module's place (scripts/build/lib-build.ts):
 * it ships one entry and one element, and a dynamic import inlined into one file kept the
 * side effects of all of d3's barrel (d3-transition among them: +19 KB gzipped).
 */
export const loadScaleCharts = () => import('./ScaleChartsDrawn');
