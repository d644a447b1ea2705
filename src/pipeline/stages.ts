// A run's pipeline: where it starts and the stages that follow (settings.ts: what configures it).
import type { SupervisedStageName } from '../agent/stage';

/** Where a run begins: the shipped agent, the shipped worksheet model, or random weights. */
export type StartFrom = 'agent' | 'pretrained' | 'scratch';
export const STARTS: readonly StartFrom[] = ['agent', 'pretrained', 'scratch'];

/** A run's stages, in order. */
export type Stage = SupervisedStageName | 'grpo';

/** The stages a run from `start` goes through. */
export const stagesFrom = (start: StartFrom): Stage[] =>
  start === 'scratch' ? ['pretrain', 'sft', 'grpo'] : start === 'pretrained' ? ['sft', 'grpo'] : ['grpo'];
