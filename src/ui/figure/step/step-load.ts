/**
 * The step taken apart (StepTakenApart.tsx: the episodes, the push, the arithmetic, Ask): on the
 * page a chunk of its own, asked for when the part first opens, so a first visit does not carry
 * it. The package's build and the unit tests put step-load.eager.ts in this module's place (a
 * `-load` module's `.eager` twin: eagerParts in vite.config.ts): the package ships one entry and
 * one element, and a render there has the part's code already, with no "Loading…" between.
 */
import { lazy } from 'react';

export const StepTakenApart = lazy(() => import('./StepTakenApart').then((m) => ({ default: m.StepTakenApart })));
