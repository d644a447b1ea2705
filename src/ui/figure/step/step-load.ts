/**
 * The step taken apart's code (StepTakenApart.tsx: the episodes, the push, the arithmetic, Ask):
 * on the page a chunk of its own, asked for when the part first opens, so a first visit does not
 * carry it. The package's build puts step-load.eager.ts in this module's place (a `-load` module's
 * `.eager` twin: scripts/build/lib-build.ts), as it ships one entry and one element.
 */
export const loadStepTakenApart = () => import('./StepTakenApart');
