// npm run sweep -- --seeds 1-10 --results FILE [--episode one-call|three-calls] [--pretrain-seed N] [--cache DIR]
//                  [--label NAME] [--trace-every N]
//                  [--pretrain-steps N] [--format plain|restate] [--sft-steps N] [--sft-lr X] [--weight-decay X]
//                  [--worksheet-rows N] [--dropout X] [--select-every N] [--shorter-demos N]   (recipe overrides)
// How one recipe (the world's, AGENT_RECIPE by default, with train-agent's overrides) spreads over seeds. For each seed:
// pre-train (or load the weights cached for this pre-training config and seed), fine-tune, and
// append one JSON line to FILE with validation, held-out and demonstration success. With
// --pretrain-seed N every run fine-tunes seed N's pre-trained model and only the fine-tuning
// stream changes (as when a reader fine-tunes the shipped worksheet model with their own seed).
// Runs already in FILE are skipped, so an interrupted sweep picks up where it stopped. With
// --episode three-calls the worksheet model is widened to the three-call agent's context before
// fine-tuning (agent/train.ts's fineTuningStart), and each score is over the sums of every world
// the agent is fine-tuned on (one, two and three calls: 120 validation, 90 held-out sums), and per
// world (`byWorld`). Choose recipes on validation only; held-out is recorded, never selected on.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_RECIPES, type AgentRecipe } from '../src/config';
import { fineTuningStart, initialModel, runStage } from '../src/agent/train';
import { SupervisedStage, worksheetAccuracy, worldsOf, type PhaseLog } from '../src/agent/stage';
import type { EpisodeKind } from '../src/env/episode';
import type { Sum, SumSplit } from '../src/env/sums';
import { roundToStored } from '../src/model/checkpoint';
import type { CharModel } from '../src/model/gpt';
import { evaluateGreedy } from '../src/rl/evaluate';
import { fail, intOption, parseOptions, seedsOption } from '../src/node/args';
import { median } from './bench/stats';
import { setNodeBackend } from './lib/node-backend';
import { loadCheckpoint, saveCheckpoint } from '../src/node/checkpoint-fs';
import { agentOption, RECIPE_OPTIONS, recipeFrom } from './lib/recipe-options';

const { values: a } = parseOptions({
  options: {
    seeds: { type: 'string', default: '1-5' },
    'pretrain-seed': { type: 'string' },
    results: { type: 'string' },
    cache: { type: 'string', default: '/tmp/sweep-recipe-cache' },
    label: { type: 'string', default: '' },
    'trace-every': { type: 'string', default: '0' },
    episode: { type: 'string' },
    ...RECIPE_OPTIONS,
  },
});
if (!a.results) fail('--results FILE is required (JSON lines are appended to it)');
const resultsFile = a.results;

const seeds = seedsOption('seeds', a.seeds!);
const traceEvery = intOption('trace-every', a['trace-every'], 0);
const fixedPretrainSeed = a['pretrain-seed'] === undefined ? null : intOption('pretrain-seed', a['pretrain-seed'], 0);
const base = recipeFrom(a, 0, AGENT_RECIPES[agentOption(a.episode)]);
const worlds = worldsOf(base);
/** Every world's sums of one part of the split, together (the one world's alone for a one-call recipe). */
const allOf = (part: keyof Omit<SumSplit, 'seed'>): Sum[] => worlds.flatMap((w) => w.split[part]);
/** The recipe as the results file keys it: all but its seeds (a one-call recipe names no world, as before). */
const recipeOf = (r: AgentRecipe): Omit<AgentRecipe, 'seed' | 'sftSeed'> => ({
  ...(r.episode && { episode: r.episode }),
  model: r.model,
  pretrain: r.pretrain,
  sft: r.sft,
});
/** What identifies a run in the results file: the whole recipe but its seed, and both seeds. */
const recipeKey = JSON.stringify(recipeOf(base));
const runKey = (pretrainSeed: number, sftSeed: number) => `${recipeKey}|${pretrainSeed}|${sftSeed}`;

interface RunLine {
  label: string;
  recipe: Omit<AgentRecipe, 'seed' | 'sftSeed'>;
  pretrainSeed: number;
  sftSeed: number;
  validation: number;
  heldOut: number;
  demonstrations: number;
  /** A recipe of several worlds: validation and held-out success in each. */
  byWorld?: Partial<Record<EpisodeKind, { validation: number; heldOut: number }>>;
  /** Teacher-forced single-digit worksheet accuracy of the pre-trained model. */
  worksheetBefore: number;
  selected?: { step: number; validation: number };
  /** With --trace-every N: validation success after every N fine-tuning steps. */
  trace?: number[];
  sftSeconds: number;
}

function doneRuns(): Map<string, RunLine> {
  const done = new Map<string, RunLine>();
  if (!existsSync(resultsFile)) return done;
  for (const line of readFileSync(resultsFile, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const run = JSON.parse(line) as RunLine;
    done.set(`${JSON.stringify(run.recipe)}|${run.pretrainSeed}|${run.sftSeed}`, run);
  }
  return done;
}

/** The pre-trained weights for this recipe's pre-training and seed: from the cache, or trained and cached. */
async function pretrained(recipe: AgentRecipe, seed: number): Promise<CharModel> {
  const { model: m, pretrain: p } = recipe;
  const name = `${p.format}-n${p.steps}-b${p.batch}-lr${p.lr}-L${m.layers}d${m.dModel}h${m.heads}c${m.context}-do${m.dropout}-seed${seed}`;
  const dir = join(a.cache!, name);
  if (existsSync(join(dir, 'manifest.json'))) {
    // A cache written before checkpoints held float16 holds float32: round it as the stage now ends.
    const { model } = loadCheckpoint(dir);
    await roundToStored(model);
    return model;
  }
  const model = initialModel(recipe, seed);
  const log = await runStage(model, recipe, 'pretrain', { seed });
  await saveCheckpoint(dir, model, { kind: 'pretrained', seed, recipe, pretrain: log });
  return model;
}

const score = async (model: CharModel, sums: Sum[]) => (await evaluateGreedy(model, sums)).success;

/** Fine-tunes `model` in place; with traceEvery > 0 scores validation along the way. */
async function fineTune(
  model: CharModel,
  recipe: AgentRecipe,
  seed: number,
): Promise<{ log: PhaseLog; trace: number[] }> {
  const stage = new SupervisedStage({ model, recipe, stage: 'sft', seed, evalEvery: 0 });
  const trace: number[] = [];
  try {
    while (!stage.finished) {
      const { step } = await stage.next();
      if (traceEvery > 0 && step % traceEvery === 0) trace.push(await score(model, allOf('validation')));
    }
    return { log: await stage.finish(), trace };
  } finally {
    stage.dispose();
  }
}

async function run(pretrainSeed: number, sftSeed: number): Promise<RunLine> {
  const recipe = { ...base, seed: sftSeed, sftSeed };
  const worksheetModel = await pretrained(recipe, pretrainSeed);
  const worksheetBefore = (await worksheetAccuracy(worksheetModel, recipe.pretrain.format)).success;
  const model = fineTuningStart(worksheetModel, recipe, sftSeed);
  try {
    const { log, trace } = await fineTune(model, recipe, sftSeed);
    return {
      label: a.label!,
      recipe: recipeOf(base),
      pretrainSeed,
      sftSeed,
      validation: await score(model, allOf('validation')),
      heldOut: await score(model, allOf('heldOut')),
      demonstrations: await score(model, allOf('demonstrations')),
      ...(worlds.length > 1 && { byWorld: await byWorld(model) }),
      worksheetBefore,
      ...(log.selected && { selected: log.selected }),
      ...(traceEvery > 0 && { trace }),
      sftSeconds: log.seconds,
    };
  } finally {
    model.dispose();
  }
}

/** Validation and held-out success in each of the recipe's worlds. */
async function byWorld(model: CharModel): Promise<NonNullable<RunLine['byWorld']>> {
  const out: NonNullable<RunLine['byWorld']> = {};
  for (const w of worlds)
    out[w.episode] = {
      validation: await score(model, w.split.validation),
      heldOut: await score(model, w.split.heldOut),
    };
  return out;
}

const pct = (x: number) => Math.round(100 * x);

await setNodeBackend('wasm');
const done = doneRuns();
const lines: RunLine[] = [];
for (const seed of seeds) {
  const pretrainSeed = fixedPretrainSeed ?? seed;
  const key = runKey(pretrainSeed, seed);
  const line = done.get(key) ?? (await run(pretrainSeed, seed));
  if (!done.has(key)) appendFileSync(resultsFile, JSON.stringify(line) + '\n');
  lines.push(line);
  const sel = line.selected ? `  (kept step ${line.selected.step})` : '';
  const per = Object.entries(line.byWorld ?? {})
    .map(([w, s]) => `; ${w}: validation ${pct(s.validation)}%, held-out ${pct(s.heldOut)}%`)
    .join('');
  console.log(
    `pre-train seed ${pretrainSeed}, fine-tune seed ${seed}: validation ${pct(line.validation)}%, held-out ${pct(line.heldOut)}%, demos ${pct(line.demonstrations)}%${per}${sel}`,
  );
}
const row = (f: (l: RunLine) => number) =>
  `${lines.map((l) => pct(f(l))).join(' ')} (median ${pct(median(lines.map(f)))})`;
console.log(`${a.label || recipeKey}\n  validation ${row((l) => l.validation)}\n  held-out   ${row((l) => l.heldOut)}`);
if (worlds.length > 1)
  for (const { episode } of worlds)
    for (const k of ['validation', 'heldOut'] as const)
      console.log(`  ${episode}, ${k === 'heldOut' ? 'held-out' : k}: ${row((l) => l.byWorld![episode]![k])}`);
