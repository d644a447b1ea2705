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

/** How GRPO assigns credit: the loss covers the model's characters only (masking on), or the
 * calculator's result too; the advantage is group-relative, or the raw reward. */
export type Advantage = 'group' | 'raw';
export const ADVANTAGES: readonly Advantage[] = ['group', 'raw'];
/** The sampling temperatures the figure offers; 1 is the plate's. */
export const TEMPERATURES = [0.5, 1, 1.5] as const;
export type Temperature = (typeof TEMPERATURES)[number];
/**
 * Who pays GRPO's training episodes (env/grader.ts): the plate's exact grader, one that counts a
 * crash as a pass, or one that trusts the calculator. Held-out success is always graded exactly.
 */
export type Grader = 'exact' | 'crash-pass' | 'trusts-tool';
export const GRADERS: readonly Grader[] = ['exact', 'crash-pass', 'trusts-tool'];

export interface RunConfig {
  start: StartFrom;
  /** Seeds every stage of the run (each stage draws its own stream from it). */
  seed: number;
  /** GRPO steps. */
  steps: number;
  faulty: boolean;
  masking: boolean;
  advantage: Advantage;
  temperature: Temperature;
  /** The training episodes' grader (a bug, or the plate's). */
  grader: Grader;
}

/** The GRPO settings of a run, as the plate sets them: masking on, group-relative, temperature 1, the exact grader. */
export const PLATE_SETTINGS = { faulty: false, masking: true, advantage: 'group', temperature: 1, grader: 'exact' } as const satisfies Pick<
  RunConfig,
  'faulty' | 'masking' | 'advantage' | 'temperature' | 'grader'
>;
