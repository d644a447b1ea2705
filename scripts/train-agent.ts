// npm run train:agent -- [--episode one-call|three-calls] [--seed N] [--sft-seed M] [--out DIR] [--backend wasm|cpu] [--quiet]
//                        [--pretrain-steps N] [--format plain|restate] [--sft-steps N] [--sft-lr X] [--weight-decay X]
//                        [--worksheet-rows N] [--dropout X] [--select-every N] [--shorter-demos N]
// Pre-trains on single-digit worksheets, fine-tunes on exactly 30 demonstrations, evaluates,
// and writes DIR/pretrained and DIR/agent (default: public/checkpoints). With --episode
// three-calls it fine-tunes the same worksheet model into the three-call agent (its positions
// widened to that agent's context; AGENT_RECIPE_THREE_CALLS: the 30 demonstrations of each length)
// and writes DIR/agent-three-calls only, scored at every length: the worksheet model is the
// one-call run's, bit for bit (its digest is printed to compare). The second and third lines
// override the world's recipe (scripts/lib/recipe-options.ts); --quiet drops the progress lines.
import { basename, join } from 'node:path';
import { AGENT_RECIPES, type AgentRecipe } from '../src/config';
import { demonstrationsOf, worldsOf } from '../src/agent/stage';
import { trainAgent, type SupervisedRecord } from '../src/agent/train';
import { sumKey } from '../src/env/sums';
import { AGENTS, WORLDS } from '../src/env/world';
import { encodeCheckpoint, weightsDigest } from '../src/model/checkpoint';
import type { CharModel } from '../src/model/gpt';
import { countParams } from '../src/model/params';
import { evaluateGreedy } from '../src/rl/evaluate';
import { intOption, oneOf, parseOptions } from '../src/node/args';
import { setNodeBackend } from './lib/node-backend';
import { saveCheckpoint } from '../src/node/checkpoint-fs';
import { agentOption, RECIPE_OPTIONS, recipeFrom } from './lib/recipe-options';

const { values: a } = parseOptions({
  options: {
    episode: { type: 'string' },
    seed: { type: 'string' },
    out: { type: 'string', default: 'public/checkpoints' },
    backend: { type: 'string' },
    'sft-seed': { type: 'string' },
    ...RECIPE_OPTIONS,
    quiet: { type: 'boolean', default: false },
  },
});
const episode = agentOption(a.episode);
const world = WORLDS[episode];
const shipped = AGENT_RECIPES[episode];
// --seed N seeds every stage; without options, the shipped recipe's own two seeds.
const seed = intOption('seed', a.seed, shipped.seed);
const recipe: AgentRecipe = recipeFrom(
  a,
  seed,
  shipped,
  intOption('sft-seed', a['sft-seed'], a.seed === undefined ? shipped.sftSeed : seed),
);
const threeCalls = episode === 'three-calls';

const backend = await setNodeBackend(oneOf('backend', a.backend, ['wasm', 'cpu'] as const, 'wasm'));
const pct = (x: number) => `${Math.round(100 * x)}%`;
const onRecord = (r: SupervisedRecord) => {
  if (a.quiet || r.step === 0 || (r.step % 25 !== 0 && r.step !== r.steps)) return;
  const score = r.heldOut
    ? `  held-out ${pct(r.heldOut.success)}`
    : r.worksheet
      ? `  worksheet sums ${pct(r.worksheet.success)}`
      : '';
  console.log(`${r.stage} ${r.step}/${r.steps} loss ${r.loss!.toFixed(4)}${score}`);
};

const { split } = world;
const scoresIn = async (m: CharModel, s: typeof split) => ({
  heldOut: (await evaluateGreedy(m, s.heldOut)).success,
  validation: (await evaluateGreedy(m, s.validation)).success,
  demonstrations: (await evaluateGreedy(m, s.demonstrations)).success,
});
/** The agent's own world's scores; for the three-call agent, every length's too (`byWorld`). */
const success = async (m: CharModel) => {
  const own = await scoresIn(m, split);
  if (!threeCalls) return own;
  const byWorld: Record<string, Awaited<ReturnType<typeof scoresIn>>> = {};
  for (const w of worldsOf(recipe)) byWorld[w.episode] = w === world ? own : await scoresIn(m, w.split);
  return { ...own, byWorld };
};

console.log(
  `training the ${episode} agent: pre-training seed ${recipe.seed}, fine-tuning seed ${recipe.sftSeed}, backend ${backend}, ${countParams({ ...recipe.model, context: AGENTS[episode].context })} parameters`,
);
const common = {
  ...(threeCalls && { episode }),
  seed: recipe.seed,
  sftSeed: recipe.sftSeed,
  backend,
  recipe,
  split: { seed: split.seed, train: split.train.length, heldOut: split.heldOut.length },
};
const {
  agent: model,
  pretrainLog: pre,
  sftLog: sft,
} = await trainAgent(recipe, {
  evalEvery: 25,
  onRecord,
  afterPretrain: async (m, log) => {
    if (!threeCalls)
      return saveCheckpoint(join(a.out!, 'pretrained'), m, { kind: 'pretrained', ...common, pretrain: log });
    const { weights } = await encodeCheckpoint(m, { kind: 'pretrained' });
    console.log(`the worksheet model: digest ${weightsDigest(weights)} (not written; the one-call run writes it)`);
  },
});
const t0 = performance.now();
const scores = await success(model);
const evalSeconds = (performance.now() - t0) / 1000;
const agentDir = join(a.out!, basename(AGENTS[episode].checkpoint));
await saveCheckpoint(agentDir, model, {
  kind: 'agent',
  ...common,
  demonstrations: threeCalls
    ? demonstrationsOf(recipe).map((d) => d.text.slice(1, d.text.indexOf('=')))
    : split.demonstrations.slice(0, recipe.sft.demonstrations).map(sumKey),
  pretrain: pre,
  sft,
  success: scores,
});
console.log(
  `pre-train ${pre.seconds.toFixed(1)} s (loss ${pre.firstLoss.toFixed(3)} → ${pre.lastLoss.toFixed(3)}), fine-tune ${sft.seconds.toFixed(1)} s (loss ${sft.firstLoss.toFixed(3)} → ${sft.lastLoss.toFixed(3)}), eval ${evalSeconds.toFixed(1)} s`,
);
console.log(
  `held-out ${pct(scores.heldOut)}, validation ${pct(scores.validation)}, demonstrations ${pct(scores.demonstrations)} → ${agentDir}`,
);
if ('byWorld' in scores)
  for (const [w, s] of Object.entries(scores.byWorld))
    console.log(
      `  ${w}: held-out ${pct(s.heldOut)}, validation ${pct(s.validation)}, demonstrations ${pct(s.demonstrations)}`,
    );
console.log(
  JSON.stringify({
    ...(threeCalls && { episode }),
    seed: recipe.seed,
    sftSeed: recipe.sftSeed,
    ...scores,
    selected: sft.selected,
    pretrainSeconds: pre.seconds,
    sftSeconds: sft.seconds,
  }),
);
