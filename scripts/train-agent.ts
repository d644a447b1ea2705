// npm run train:agent -- [--seed N] [--out DIR] [--backend wasm|cpu] [recipe overrides]
// Pre-trains on single-digit worksheets, fine-tunes on exactly 30 demonstrations, evaluates,
// and writes DIR/pretrained and DIR/agent (default: public/checkpoints).
import { join } from 'node:path';
import { AGENT_RECIPE, type AgentRecipe } from '../src/config';
import { trainAgent, type SupervisedRecord } from '../src/agent/train';
import { SPLIT } from '../src/env/sums';
import type { CharModel } from '../src/model/gpt';
import { countParams } from '../src/model/params';
import { evaluateGreedy } from '../src/rl/evaluate';
import { intOption, oneOf, parseOptions } from '../src/node/args';
import { setNodeBackend } from './lib/node-backend';
import { saveCheckpoint } from '../src/node/checkpoint-fs';
import { RECIPE_OPTIONS, recipeFrom } from './lib/recipe-options';

const { values: a } = parseOptions({
  options: {
    seed: { type: 'string' },
    out: { type: 'string', default: 'public/checkpoints' },
    backend: { type: 'string' },
    'sft-seed': { type: 'string' },
    ...RECIPE_OPTIONS,
    quiet: { type: 'boolean', default: false },
  },
});
// --seed N seeds every stage; without options, the shipped recipe's own two seeds.
const seed = intOption('seed', a.seed, AGENT_RECIPE.seed);
const recipe: AgentRecipe = recipeFrom(
  a,
  seed,
  AGENT_RECIPE,
  intOption('sft-seed', a['sft-seed'], a.seed === undefined ? AGENT_RECIPE.sftSeed : seed),
);

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

const success = async (m: CharModel) => ({
  heldOut: (await evaluateGreedy(m, SPLIT.heldOut)).success,
  validation: (await evaluateGreedy(m, SPLIT.validation)).success,
  demonstrations: (await evaluateGreedy(m, SPLIT.demonstrations)).success,
});

console.log(
  `training the agent: pre-training seed ${recipe.seed}, fine-tuning seed ${recipe.sftSeed}, backend ${backend}, ${countParams(recipe.model)} parameters`,
);
const common = {
  seed: recipe.seed,
  sftSeed: recipe.sftSeed,
  backend,
  recipe,
  split: { seed: SPLIT.seed, train: SPLIT.train.length, heldOut: SPLIT.heldOut.length },
};
const {
  agent: model,
  pretrainLog: pre,
  sftLog: sft,
} = await trainAgent(recipe, {
  evalEvery: 25,
  onRecord,
  afterPretrain: (m, log) =>
    saveCheckpoint(join(a.out!, 'pretrained'), m, { kind: 'pretrained', ...common, pretrain: log }),
});
const t0 = performance.now();
const scores = await success(model);
const evalSeconds = (performance.now() - t0) / 1000;
await saveCheckpoint(join(a.out!, 'agent'), model, {
  kind: 'agent',
  ...common,
  demonstrations: SPLIT.demonstrations.slice(0, recipe.sft.demonstrations).map((s) => `${s.a}+${s.b}`),
  pretrain: pre,
  sft,
  success: scores,
});
console.log(
  `pre-train ${pre.seconds.toFixed(1)} s (loss ${pre.firstLoss.toFixed(3)} → ${pre.lastLoss.toFixed(3)}), fine-tune ${sft.seconds.toFixed(1)} s (loss ${sft.firstLoss.toFixed(3)} → ${sft.lastLoss.toFixed(3)}), eval ${evalSeconds.toFixed(1)} s`,
);
console.log(
  `held-out ${pct(scores.heldOut)}, validation ${pct(scores.validation)}, demonstrations ${pct(scores.demonstrations)} → ${a.out}`,
);
console.log(
  JSON.stringify({
    seed: recipe.seed,
    sftSeed: recipe.sftSeed,
    ...scores,
    selected: sft.selected,
    pretrainSeconds: pre.seconds,
    sftSeconds: sft.seconds,
  }),
);
