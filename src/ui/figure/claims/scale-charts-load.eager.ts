/** The package's build's scale-charts-load.ts: the charts in the same file, rendered at once. */
export { ScaleChartsDrawn } from './ScaleChartsDrawn';
