// npm run eval -- [--episode one-call|two-calls|three-calls] [--checkpoint DIR] [--backend wasm|cpu] [--json] [--verbose]
// Greedy held-out success of a checkpoint on the world's 30 held-out sums, reliable calculator
// (default: the world's own shipped agent: the three-call agent for two and three calls).
import { fitsContext, WORLDS } from '../src/env/world';
import { longestEpisode } from '../src/env/episode';
import { countParams } from '../src/model/params';
import { SETTINGS } from '../src/pipeline/settings';
import { evaluateGreedy } from '../src/rl/evaluate';
import { fail, oneOf, parseOptions } from '../src/node/args';
import { setNodeBackend } from './lib/node-backend';
import { loadCheckpoint, shippedFor } from '../src/node/checkpoint-fs';
import { episodeOption } from './lib/recipe-options';

const { values: a } = parseOptions({
  options: {
    episode: { type: 'string' },
    checkpoint: { type: 'string' },
    backend: { type: 'string' },
    json: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});
const episode = episodeOption(a.episode);
const world = WORLDS[episode];
const checkpoint = a.checkpoint ?? shippedFor(world.agent).agent;
await setNodeBackend(oneOf('backend', a.backend, ['wasm', 'cpu'] as const, 'wasm'));
let loaded;
try {
  loaded = loadCheckpoint(checkpoint);
} catch (e) {
  fail((e as Error).message);
}
const { model, manifest } = loaded;
if (!fitsContext(episode, model.config.context))
  fail(
    `${checkpoint} has a context of ${model.config.context}; the ${episode} world needs ${longestEpisode(world.calls)} (an agent of another world?)`,
  );
const ev = await evaluateGreedy(model, world.split.heldOut);
const demos = (manifest.card as { demonstrations?: unknown[] }).demonstrations?.length ?? null;
if (a.verbose)
  for (const e of ev.episodes) console.log(`${e.reward ? '✓' : '✗'} ${e.text}${e.reward ? '' : `  (${e.reason})`}`);
console.log(
  `held-out success ${(100 * ev.success).toFixed(1)}% (${ev.correct} of ${ev.n}), ${SETTINGS.episode.runLabel(episode, world) || 'one call'}, checkpoint ${checkpoint}`,
);
if (a.json) {
  const c = model.config;
  console.log(
    JSON.stringify({
      episode,
      heldOut: ev.success,
      correct: ev.correct,
      n: ev.n,
      demonstrations: demos,
      model: { layers: c.layers, dModel: c.dModel, heads: c.heads, context: c.context, params: countParams(c) },
    }),
  );
}
