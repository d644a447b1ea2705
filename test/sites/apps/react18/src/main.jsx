// A volume page on the oldest React the package claims (its peer range's lowest: 18.0.0), bundled
// by esbuild as the esbuild site is: the component, in StrictMode.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MultiTurnRLPlate } from 'multi-turn-rl-plate';
import 'multi-turn-rl-plate/style.css';

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <MultiTurnRLPlate xrefPattern="/volume/plates/{ref}/" autorun steps={2} />
  </StrictMode>,
);
