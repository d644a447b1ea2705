// npm run eval -- [--checkpoint DIR] [--backend wasm|cpu] [--json]
// Greedy held-out success of a checkpoint on the 30 held-out sums, reliable calculator.
import { SPLIT } from '../src/env/sums';
import { countParams } from '../src/model/params';
import { evaluateGreedy } from '../src/rl/evaluate';
import { fail, oneOf, parseOptions } from '../src/node/args';
import { setNodeBackend } from './lib/node-backend';
import { loadCheckpoint, SHIPPED } from '../src/node/checkpoint-fs';

const { values: a } = parseOptions({
  options: {
    checkpoint: { type: 'string', default: SHIPPED.agent },
    backend: { type: 'string' },
    json: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});
await setNodeBackend(oneOf('backend', a.backend, ['wasm', 'cpu'] as const, 'wasm'));
let loaded;
try {
  loaded = loadCheckpoint(a.checkpoint!);
} catch (e) {
  fail((e as Error).message);
}
const { model, manifest } = loaded;
const ev = await evaluateGreedy(model, SPLIT.heldOut);
const demos = (manifest.card as { demonstrations?: unknown[] }).demonstrations?.length ?? null;
if (a.verbose)
  for (const e of ev.episodes) console.log(`${e.reward ? '✓' : '✗'} ${e.text}${e.reward ? '' : `  (${e.reason})`}`);
console.log(
  `held-out success ${(100 * ev.success).toFixed(1)}% (${ev.correct} of ${ev.n}), checkpoint ${a.checkpoint}`,
);
if (a.json) {
  const c = model.config;
  console.log(
    JSON.stringify({
      heldOut: ev.success,
      correct: ev.correct,
      n: ev.n,
      demonstrations: demos,
      model: { layers: c.layers, dModel: c.dModel, heads: c.heads, context: c.context, params: countParams(c) },
    }),
  );
}
