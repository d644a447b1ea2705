// A run's pipeline: where it starts, the stages that follow, and what configures it.
import type { Grader } from '../env/grader';
import type { Advantage } from '../rl/credit';

export { GRADERS, type Grader } from '../env/grader';
export { ADVANTAGES, type Advantage } from '../rl/credit';

/** Where a run begins: the shipped agent, the shipped worksheet model, or random weights. */
export type StartFrom = 'agent' | 'pretrained' | 'scratch';
export const STARTS: readonly StartFrom[] = ['agent', 'pretrained', 'scratch'];

/** A run's stages, in order. */
export type Stage = 'pretrain' | 'sft' | 'grpo';

/** The stages a run from `start` goes through. */
export const stagesFrom = (start: StartFrom): Stage[] =>
  start === 'scratch' ? ['pretrain', 'sft', 'grpo'] : start === 'pretrained' ? ['sft', 'grpo'] : ['grpo'];

/** The sampling temperatures the figure offers; 1 is the plate's. */
export const TEMPERATURES = [0.5, 1, 1.5] as const;
export type Temperature = (typeof TEMPERATURES)[number];

export interface RunConfig {
  start: StartFrom;
  /** Seeds every stage of the run (each stage draws its own stream from it). */
  seed: number;
  /** GRPO steps. */
  steps: number;
  faulty: boolean;
  /** Observation masking, the plate's switch: on, the loss covers the model's characters only (rl/credit.ts's lossMaskFor). */
  masking: boolean;
  advantage: Advantage;
  temperature: Temperature;
  /** The training episodes' grader (a bug, or the plate's). */
  grader: Grader;
}

/** The GRPO settings of a run, as the plate sets them: masking on, group-relative, temperature 1, the exact grader. */
export const PLATE_SETTINGS = {
  faulty: false,
  masking: true,
  advantage: 'group',
  temperature: 1,
  grader: 'exact',
} as const satisfies Pick<RunConfig, 'faulty' | 'masking' | 'advantage' | 'temperature' | 'grader'>;
