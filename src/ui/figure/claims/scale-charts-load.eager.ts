/** The package's build's scale-charts-load.ts: the charts' code in the same file, loaded already. */
import * as drawn from './ScaleChartsDrawn';

export const loadScaleCharts = () => Promise.resolve(drawn);
