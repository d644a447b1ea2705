// A volume page bundled by esbuild: the component, as the recipe shows. esbuild copies no file
// it does not bundle, so the site's build copies the package's plate folder beside the bundle,
// where the plate's `new URL('./plate-<version>/…', import.meta.url)` finds it.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MultiTurnRLPlate } from 'multi-turn-rl-plate';
import 'multi-turn-rl-plate/style.css';

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <MultiTurnRLPlate xrefPattern="/volume/plates/{ref}/" autorun steps={2} />
  </StrictMode>,
);
