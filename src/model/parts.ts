/**
 * A record's work in parts. Where a step takes minutes — JavaScript without its JIT, on the
 * plain-JavaScript backend — the caller (the page's worker) must hear from the work every few
 * seconds: its watchdog judges silence against that progress, the page says the time left from
 * the first part, and a reset need not wait for the step to end. So compute code cuts its work
 * into parts of rows (`PartSizes`) and calls `BetweenParts` after each; the caller decides what
 * to do (report, yield to its messages, or abandon the record by rejecting). Elsewhere a step is
 * one part per phase and the call costs nothing.
 *
 * Work is counted in units that take about equal time on an interpreter (`node --jitless`, cpu
 * backend: a row at one rollout position 14 ms, a character through the training forward 6 ms,
 * through the forward and backward 40 ms), so a part's time predicts the rest of a step.
 */

/** What a record is computing: GRPO's three phases, or a supervised step and its measurement. */
export type WorkPhase = 'sampling' | 'update' | 'evaluation';

/** Where a record's computation stands, in units of work. */
export interface WorkProgress {
  phase: WorkPhase;
  /** Units done in this record so far. */
  done: number;
  /** Units this record takes in all: an estimate until its rollouts have ended. */
  of: number;
  /** Units of one of the stage's usual steps (step 0 only measures): the pace of the steps still to come. */
  perStep: number;
}

/**
 * Called between parts. A promise makes the work wait for it, and a rejection abandons the
 * record (every tensor is freed on the way out); undefined goes on at once.
 */
export type BetweenParts = (p: WorkProgress) => Promise<void> | undefined;

/** Called by a phase after each of its parts, with the units it did. */
export type PartDone = (units: number) => Promise<void> | undefined;

/** Rows per part: of a rollout at each position, of the update (its gradients summed), of a forward pass. */
export interface PartSizes {
  rolloutRows: number;
  updateRows: number;
  forwardRows: number;
}

/** Units of work: a row at one rollout position; a character through the training forward; forward and backward. */
export const UNITS = { decode: 1, forward: 0.4, train: 3 } as const;

/** `n` indices cut into consecutive runs of at most `size` (one run when size is absent). */
export function partsOf(n: number, size?: number): number[][] {
  const all = Array.from({ length: n }, (_, i) => i);
  if (size === undefined || size >= n) return [all];
  const parts: number[][] = [];
  for (let i = 0; i < n; i += size) parts.push(all.slice(i, i + size));
  return parts;
}

/**
 * A record's progress: the phases add the units they did, and each addition is passed to the
 * caller's `between` with the record's current estimate of its whole.
 */
export class WorkMeter {
  private done = 0;

  constructor(
    private of: number,
    private perStep: number,
    private readonly between?: BetweenParts,
  ) {}

  /** The record's whole and a usual step, estimated again once more is known (a rollout's length, the update's rows). */
  expect(of: number, perStep = this.perStep): void {
    this.of = of;
    this.perStep = perStep;
  }

  get units(): number {
    return this.done;
  }

  /** A phase's PartDone, under its name. */
  phase(phase: WorkPhase): PartDone {
    return (units) => {
      this.done += units;
      return this.between?.({ phase, done: this.done, of: Math.max(this.of, this.done), perStep: this.perStep });
    };
  }
}
