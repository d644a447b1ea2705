/** The package's build's step-load.ts: the step taken apart in the same file, rendered at once. */
export { StepTakenApart } from './StepTakenApart';
