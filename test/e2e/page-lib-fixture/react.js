// A consumer app: its own React, the plate library bundled in, the assets served beside the page.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { MultiTurnRLPlate } from 'multi-turn-rl-plate';
import 'multi-turn-rl-plate/style.css';

createRoot(document.getElementById('root')).render(
  createElement(MultiTurnRLPlate, { assetBase: './plate-assets/', xrefPattern: 'https://volume.example/plates/{ref}', autorun: true, steps: 2 }),
);
