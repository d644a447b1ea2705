// A run's pipeline: where it starts, the stages that follow, and what configures it.
// No imports: the library's public types use it.

/** Where a run begins: the shipped agent, the shipped worksheet model, or random weights. */
export type StartFrom = 'agent' | 'pretrained' | 'scratch';
export const STARTS: readonly StartFrom[] = ['agent', 'pretrained', 'scratch'];

/** A run's stages, in order. */
export type Stage = 'pretrain' | 'sft' | 'grpo';

/** The stages a run from `start` goes through. */
export const stagesFrom = (start: StartFrom): Stage[] =>
  start === 'scratch' ? ['pretrain', 'sft', 'grpo'] : start === 'pretrained' ? ['sft', 'grpo'] : ['grpo'];

export interface RunConfig {
  start: StartFrom;
  /** Seeds every stage of the run (each stage draws its own stream from it). */
  seed: number;
  /** GRPO steps. */
  steps: number;
  faulty: boolean;
}
