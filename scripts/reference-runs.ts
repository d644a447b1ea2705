// npm run reference-runs -- [--seeds 1,2,3,4,5] [--steps 40] [--sft-seeds 1,2,3,4,5] [--only plate|bugs|all]
//                           [--checkpoint DIR] [--pretrained DIR] [--out FILE] [--episode one-call|two-calls]
// The page's precomputed bands, made by the Node workshop: GRPO from the shipped agent for every
// configuration the figure offers at temperature 1 (2 calculators × masking on/off × group-
// relative/raw advantage with the exact grader, and each grader bug with the plate's credit and
// both calculators, each over the seeds), and fine-tuning the shipped worksheet model over the
// SFT seeds. Prints a table per configuration (docs/results.md's) and writes
// public/reference-runs.json; the page labels what it draws from it as precomputed.
// --only bugs runs the grader bugs alone and merges them into --out: the file's other runs are
// kept as they are (a full run remakes them with the same curves but new seconds).
// --episode two-calls: the two-call world's runs from its shipped agent (the credit switches with
// the exact grader, no bugs: --only all means those), written to public/reference-runs-two-calls.json,
// a file of its own that the page fetches only for that world; each run also keeps, per step, the
// share of zero-spread groups and of correct first calls pushed down.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { mean } from 'd3';
import { AGENT_RECIPES, GRPO, STAGE_EVAL_EVERY } from '../src/config';
import { ADVANTAGES, type Advantage, type Grader } from '../src/pipeline/stages';
import type { RunSummary } from '../src/rl/summary';
import { intOption, main, oneOf } from './lib/args';
import { setNodeBackend } from './lib/node-backend';
import { shippedFor } from './lib/checkpoint-fs';
import { episodeOption } from './lib/recipe-options';
import type { EpisodeKind } from '../src/env/world';
import { runWorkshop } from './lib/run-workshop';

const { values: a } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1,2,3,4,5' },
    'sft-seeds': { type: 'string', default: '1,2,3,4,5' },
    steps: { type: 'string' },
    only: { type: 'string' },
    checkpoint: { type: 'string' },
    pretrained: { type: 'string' },
    out: { type: 'string' },
    episode: { type: 'string' },
  },
});

const round = (x: number) => Math.round(x * 1e4) / 1e4;
const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
const seedList = (name: string, value: string) => value.split(',').map((s) => intOption(name, s, 0));
const last5 = (xs: number[]) => mean(xs.slice(-5))!;
const first5 = (xs: number[]) => mean(xs.slice(0, 5))!;

interface Config {
  faulty: boolean;
  masking: boolean;
  advantage: Advantage;
  grader: Grader;
}

/** A run as the file holds it; an exact-grader run keeps the shape it always had (no grader, no true success: it is the reward). */
interface Done extends Omit<Config, 'grader'> {
  seed: number;
  grader?: Grader;
  heldOut: number[];
  meanReward: number[];
  trueSuccess?: number[];
  copyRate: number[];
  malformed: number[];
  /** Two calls only: per step, the share of zero-spread groups and of correct first calls pushed down. */
  zeroSpreadGroups?: number[];
  correctCallsPushedDown?: number[];
  summary: RunSummary;
}

type Only = 'plate' | 'bugs' | 'all';
type Checkpoints = { agent: string; pretrained: string };
/** Where a world's reference runs are written. */
const OUT: Record<EpisodeKind, string> = {
  'one-call': 'public/reference-runs.json',
  'two-calls': 'public/reference-runs-two-calls.json',
};

/**
 * --only plate: the plate's own two configurations (a quick check); bugs: each grader bug with the
 * plate's credit and both calculators (with the reliable one, trusting the tool pays the true
 * result of a slipped call; a crash pays whatever the calculator does); all: both, and the credit
 * switches with the exact grader.
 */
function configsFor(only: Only, episode: EpisodeKind): Config[] {
  const configs: Config[] = [];
  if (episode === 'two-calls' && only === 'bugs') throw new Error('--only bugs: the two-call world has no bug runs');
  if (only !== 'bugs') {
    for (const masking of only === 'plate' ? [true] : [true, false]) {
      for (const advantage of only === 'plate' ? (['group'] as const) : ADVANTAGES) {
        for (const faulty of [false, true]) configs.push({ faulty, masking, advantage, grader: 'exact' });
      }
    }
  }
  if (only !== 'plate' && episode === 'one-call')
    for (const grader of ['crash-pass', 'trusts-tool'] as const)
      for (const faulty of [false, true]) configs.push({ faulty, masking: true, advantage: 'group', grader });
  return configs;
}

/** One configuration over the seeds, as the file holds its runs. */
async function runConfig(
  config: Config,
  seeds: number[],
  steps: number,
  checkpoints: Checkpoints,
  episode: EpisodeKind,
): Promise<Done[]> {
  const done: Done[] = [];
  for (const seed of seeds) {
    const r = await runWorkshop({ start: 'agent', seed, steps, checkpoints, ...config, temperature: 1, episode });
    const grpo = r.records.slice(1);
    const share = (k: 'copied' | 'malformed') => grpo.map((s) => s[k] / s.episodes.length);
    const { grader, ...credit } = config;
    done.push({
      seed,
      ...credit,
      ...(grader !== 'exact' && { grader }),
      heldOut: r.heldOut.map(round),
      meanReward: r.meanReward.map(round),
      ...(grader !== 'exact' && { trueSuccess: r.trueSuccess.map(round) }),
      copyRate: share('copied').map(round),
      malformed: share('malformed').map(round),
      ...(episode === 'two-calls' && {
        zeroSpreadGroups: grpo.map((s) => round(s.zeroSpreadGroups!)),
        correctCallsPushedDown: grpo.map((s) => round(s.correctCallsPushedDown!)),
      }),
      summary: { ...r.grpo, seconds: round(r.grpo.seconds) },
    });
  }
  return done;
}

const TABLE_HEAD = [
  '| calculator | masking | advantage | grader | held-out start → end per seed | mean | reward first 5 → last 5 (mean) | true success first 5 → last 5 | copies the tool, last 5 | malformed, last 5 |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

/** A configuration's row of the printed table (docs/results.md's). */
function tableRow(config: Config, done: Done[]): string {
  const m = (f: (d: Done) => number) => pct(mean(done, f)!);
  const truth = (d: Done) => d.trueSuccess ?? d.meanReward;
  return (
    `| ${config.faulty ? 'faulty' : 'reliable'} | ${config.masking ? 'on' : 'off'} | ${config.advantage === 'group' ? 'group-relative' : 'raw reward'} | ${config.grader} | ` +
    `${done.map((d) => `${pct(d.summary.heldOutStart)} → ${pct(d.summary.heldOutEnd)}`).join(', ')} | ${m((d) => d.summary.heldOutEnd)} | ` +
    `${m((d) => d.summary.rewardFirst5)} → ${m((d) => d.summary.rewardLast5)} | ${m((d) => first5(truth(d)))} → ${m((d) => last5(truth(d)))} | ` +
    `${m((d) => last5(d.copyRate))} | ${m((d) => last5(d.malformed))} |`
  );
}

/** --only bugs: the new runs replace their twins in `out`; the file's other runs stay exactly as they were. */
function mergeInto(out: string, runs: Done[]): void {
  const old = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as { runs: Done[] }) : null;
  if (!old) throw new Error(`--only bugs merges into ${out}, which does not exist; run without --only first`);
  const same = (x: Done, y: Done) =>
    x.seed === y.seed &&
    x.faulty === y.faulty &&
    x.masking === y.masking &&
    x.advantage === y.advantage &&
    (x.grader ?? 'exact') === (y.grader ?? 'exact');
  writeFileSync(
    out,
    JSON.stringify({ ...old, runs: [...old.runs.filter((o) => !runs.some((n) => same(o, n))), ...runs] }) + '\n',
  );
  console.log(`merged ${runs.length} runs into ${out}`);
}

/** Fine-tuning the shipped worksheet model per seed: held-out success where measured, the loss per step. */
async function sftReferenceRuns(seeds: number[], checkpoints: Checkpoints, episode: EpisodeKind) {
  const runs = [];
  for (const seed of seeds) {
    const heldOut: number[] = [];
    const loss: number[] = [];
    const r = await runWorkshop({ start: 'pretrained', seed, steps: 1, checkpoints, episode }, ({ stage, record }) => {
      if (stage !== 'sft') return;
      if (record.heldOut) heldOut.push(round(record.heldOut.success));
      if (record.loss !== null) loss.push(round(record.loss));
    });
    console.log(
      `fine-tuning the shipped worksheet model, seed ${seed}: held-out ${pct(r.sftHeldOut!)} after ${AGENT_RECIPES[episode].sft.steps} steps`,
    );
    runs.push({ seed, heldOut, loss });
  }
  return runs;
}

await main(async () => {
  const seeds = seedList('seeds', a.seeds!);
  const steps = intOption('steps', a.steps, GRPO.steps, 1);
  const only = oneOf('only', a.only, ['plate', 'bugs', 'all'] as const, 'all');
  const episode = episodeOption(a.episode);
  const backend = await setNodeBackend('wasm');
  const shipped = shippedFor(episode);
  const checkpoints = { agent: a.checkpoint ?? shipped.agent, pretrained: a.pretrained ?? shipped.pretrained };
  const out = a.out ?? OUT[episode];
  const runs: Done[] = [];
  for (const l of TABLE_HEAD) console.log(l);
  for (const config of configsFor(only, episode)) {
    const done = await runConfig(config, seeds, steps, checkpoints, episode);
    console.log(tableRow(config, done));
    runs.push(...done);
  }
  if (only === 'bugs') return mergeInto(out, runs);
  const sftRuns = await sftReferenceRuns(seedList('sft-seeds', a['sft-seeds']!), checkpoints, episode);
  writeFileSync(
    out,
    JSON.stringify({
      note: `Precomputed reference runs (scripts/reference-runs.ts, Node, wasm backend): GRPO from the shipped agent per configuration, and fine-tuning of the shipped worksheet model${episode === 'two-calls' ? ', in the two-call world' : ''}. Not live.`,
      ...(episode === 'two-calls' && { episode }),
      checkpoint: checkpoints.agent,
      backend,
      steps,
      runs,
      sft: { steps: AGENT_RECIPES[episode].sft.steps, every: STAGE_EVAL_EVERY, runs: sftRuns },
    }) + '\n',
  );
  console.log(`wrote ${out}`);
});
