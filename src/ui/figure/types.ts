/**
 * What the figure needs from a trainer, as plain data: the figure's components take these as
 * props, and one container (LiveFigure) fills them from the worker hook.
 */
import type { RunView } from '../../client/worker-state';
import type { CalculatorName } from '../../env/calculator';

export type {
  BackendInfo,
  BackendSwitch,
  Holder,
  InFlight,
  ReadyInfo,
  RunView,
  WorkerStatus,
} from '../../client/worker-state';

/**
 * For React.memo: props equal but for `run`, which counts as unchanged while its GRPO side is
 * (a supervised stage's step makes a new run object that the GRPO panels would draw the same).
 */
export function sameGrpoSide<P extends { run: RunView | null }>(a: P, b: P): boolean {
  const keys = Object.keys(a) as (keyof P)[];
  const same = (x: RunView | null, y: RunView | null) =>
    x === y || (x !== null && y !== null && x.runId === y.runId && x.config === y.config && x.steps === y.steps);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => (k === 'run' ? same(a.run, b.run) : Object.is(a[k], b[k])))
  );
}

/** A line's colour is its run's calculator. */
export const toneOf = (faulty: boolean): CalculatorName => (faulty ? 'faulty' : 'reliable');

/** A line's dash says how credit was assigned: solid as the plate, dashed with masking off, dotted with raw reward. */
export type Dash = 'solid' | 'dashed' | 'dotted' | 'dashdot';

/** One curve: [step, value as a fraction] points. */
export interface Series {
  id: string;
  label: string;
  tone: CalculatorName;
  /** An earlier run, drawn faintly under the live one. */
  dim: boolean;
  dash: Dash;
  points: readonly (readonly [number, number])[];
}

/** The plate's stated numbers, drawn as small labelled marks. */
export interface Marker {
  step: number;
  value: number;
  label: string;
  tone: CalculatorName;
}

/** The spread of the precomputed reference runs at each step. */
export interface BandPoint {
  step: number;
  lo: number;
  hi: number;
}
