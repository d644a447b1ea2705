/**
 * Warming the engine while the reader reads. A cold worker's first GRPO step takes 3–6× a warm
 * one, and its first ten steps ~1.5× the last ten (WebAssembly and JavaScript still tiering up:
 * docs/performance.md, "The targets"). The reader usually reads before pressing
 * Run, and the worker is idle then; this spends that idle time on the calibration's own work —
 * the rollout's forward with its readbacks and a GRPO-sized policy update, on a fresh model of the
 * plate's size (worker/calibrate.ts) — so the run that follows starts faster.
 *
 * In slices of at most one calibration pass, so a command waits for one slice at most: the
 * session (worker/session.ts) runs one, lets messages in, and stops for good at the first thing
 * it has to do. It touches no run's state: its own model, optimiser and batch, no random stream,
 * and nothing left behind once disposed.
 */
import { GRPO, MODEL, type ModelConfig } from '../config';
import { adam } from '../model/adam';
import { CharModel } from '../model/gpt';
import { PASSES, POSITIONS, sample, settled, updateBatch } from './calibrate';
import { policyUpdate } from '../rl/update';

/** Slices before the first calibration pass: the forward once, the update once. */
const FIRST = 2;

export interface WarmUpSummary {
  /** Milliseconds of every slice, the first (every kernel once) included. */
  slices: number[];
  /** Their sum. */
  ms: number;
}

export class IdleWarmUp {
  private readonly model: CharModel;
  private readonly optimizer: ReturnType<typeof adam>;
  private readonly batch = updateBatch();
  private readonly slices: number[] = [];
  private disposed = false;

  constructor(config: ModelConfig = MODEL) {
    this.model = CharModel.create(config, 1);
    this.optimizer = adam(GRPO.lr);
  }

  /** Every slice has run: the last pass was no faster than the best before it, or the passes ran out. */
  get finished(): boolean {
    const passes = this.slices.slice(FIRST);
    return (
      this.disposed || passes.length >= PASSES || (passes.length > 1 && settled(passes.at(-1)!, passes.slice(0, -1)))
    );
  }

  /**
   * One slice: the first two run every kernel once, the forward (one position) and then the
   * update (two episodes), apart because a cold engine is slowest there; each later one is a
   * calibration pass. Returns false when there is nothing left worth doing.
   */
  async slice(): Promise<boolean> {
    if (this.finished) return false;
    const t0 = performance.now();
    const k = this.slices.length;
    const { episodes, advantages } = this.batch;
    if (k !== 1)
      await sample(
        this.model,
        k === 0 ? 1 : POSITIONS,
        () => false,
        () => {},
      );
    if (k === 1)
      await policyUpdate({
        model: this.model,
        optimizer: this.optimizer,
        episodes: episodes.slice(0, 2),
        advantages: advantages.slice(0, 2),
        config: GRPO,
        step: 0,
      });
    else if (k > 1)
      await policyUpdate({
        model: this.model,
        optimizer: this.optimizer,
        episodes,
        advantages,
        config: GRPO,
        step: k - 1,
      });
    this.slices.push(performance.now() - t0);
    return !this.finished;
  }

  summary(): WarmUpSummary {
    return { slices: [...this.slices], ms: this.slices.reduce((a, b) => a + b, 0) };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.optimizer.dispose();
    this.model.dispose();
  }
}
