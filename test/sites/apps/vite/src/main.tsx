// A volume site's page, as its developer would write it after installing the tarball.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MultiTurnRLPlate, type MultiTurnRLPlateProps, type PlateHeightMessage } from 'multi-turn-rl-plate';
import 'multi-turn-rl-plate/style.css';

const props: MultiTurnRLPlateProps = { xrefPattern: '/volume/plates/{ref}/', autorun: true, steps: 2 };

// The published types are real: each of these is an error the consumer's compiler must report.
// @ts-expect-error steps is a number
const wrongSteps: MultiTurnRLPlateProps = { steps: '2' };
// @ts-expect-error there is no such start
const wrongStart: MultiTurnRLPlateProps = { start: 'middle' };
const height = (m: PlateHeightMessage): number => m.height;
void [wrongSteps, wrongStart, height];

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MultiTurnRLPlate {...props} />
  </StrictMode>,
);
