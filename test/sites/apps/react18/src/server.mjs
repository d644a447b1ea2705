// The component rendered on a server, as a site's static build does it (Docusaurus, Next.js 14):
// prints the page's length, whether it holds the plate, and what React logged while rendering.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { MultiTurnRLPlate } from 'multi-turn-rl-plate';

const logged = [];
for (const level of ['error', 'warn']) console[level] = (...args) => logged.push(`${level}: ${args.join(' ')}`);
const html = renderToString(createElement(MultiTurnRLPlate, { xrefPattern: '/volume/plates/{ref}/' }));
process.stdout.write(JSON.stringify({ length: html.length, plate: html.includes('Multi-Turn RL'), logged }));
