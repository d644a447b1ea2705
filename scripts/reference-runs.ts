// npm run reference-runs -- [--seeds 1,2,3,4,5] [--steps 40] [--sft-seeds 1,2,3,4,5] [--only plate|bugs|dials|all]
//                           [--checkpoint DIR] [--pretrained DIR] [--out FILE] [--agent one-call|three-calls]
// The page's precomputed bands, made by the Node workshop: GRPO from the shipped agent for every
// configuration the figure offers at temperature 1 (2 calculators × masking on/off × group-
// relative/raw advantage with the exact grader, each grader bug with the plate's credit and both
// calculators, and the plate's configuration at μ = 2 and 4 with both calculators, each over the
// seeds, with what a practitioner reads of each run: clip fractions, entropy), and fine-tuning the shipped worksheet model over the
// SFT seeds. Prints a table per configuration (docs/results.md's) and writes
// public/reference-runs.json; the page labels what it draws from it as precomputed.
// --only bugs (or dials) runs the grader bugs (or μ = 2, 4) alone and merges them into --out: the file's other runs are
// kept as they are (a full run remakes them with the same curves but new seconds).
// --agent three-calls: the three-call agent's runs at every length, each run naming its `episode`
// and `agent`: at two and three calls the credit switches with the exact grader (no bugs, no μ:
// --only all means those; the two- and three-call worlds' bands, the agent being both worlds' own),
// and at one call the plate's settings with both calculators (the closing claims with the agent
// held fixed), written to public/reference-runs-three-calls.json, a file of its own that the page
// fetches only with the three-call agent. Each run with the plate's settings (at every length, both
// calculators) also keeps, per step, the share of zero-spread groups, of them the all-fail ones,
// and of correct first calls pushed down: the claims' figures (src/rl/claims.ts); and, over the
// run, its groups by how many of their 8 episodes were paid and where a step's time went: what
// the scale model (src/rl/scale.ts) is fitted to.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mean } from 'd3';
import { AGENT_RECIPES, GRPO, STAGE_EVAL_EVERY } from '../src/config';
import { ADVANTAGES, type Advantage } from '../src/config';
import type { Grader } from '../src/env/grader';
import type { RunSummary } from '../src/rl/summary';
import { intOption, main, oneOf, parseOptions } from '../src/node/args';
import { setNodeBackend } from './lib/node-backend';
import { shippedFor } from '../src/node/checkpoint-fs';
import { runWorkshop } from '../src/node/run-workshop';
import { stepMetrics } from '../src/rl/metrics';
import { paidCounts } from '../src/rl/figures';
import type { StepTime } from '../src/rl/scale';
import { updateRows } from '../src/rl/update';
import type { GrpoRecord } from '../src/rl/grpo';
import { median } from './bench/stats';
import type { RunSettings } from '../src/pipeline/settings';
import type { AgentName, EpisodeKind } from '../src/env/episode';
import { AGENT_NAMES } from '../src/env/world';

const { values: a } = parseOptions({
  options: {
    seeds: { type: 'string', default: '1,2,3,4,5' },
    'sft-seeds': { type: 'string', default: '1,2,3,4,5' },
    steps: { type: 'string' },
    only: { type: 'string' },
    checkpoint: { type: 'string' },
    pretrained: { type: 'string' },
    out: { type: 'string' },
    agent: { type: 'string' },
  },
});

const round = (x: number) => Math.round(x * 1e4) / 1e4;
const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
const seedList = (name: string, value: string) => value.split(',').map((s) => intOption(name, s, 0));
const last5 = (xs: number[]) => mean(xs.slice(-5))!;
const first5 = (xs: number[]) => mean(xs.slice(0, 5))!;

interface Config {
  /** Absent: the one-call file's world, played by its own agent (the three-call file names both in every run). */
  episode?: EpisodeKind;
  agent?: RunSettings['agent'];
  faulty: boolean;
  masking: boolean;
  advantage: Advantage;
  grader: Grader;
  /** μ: absent, the plate's 1. */
  updatesPerBatch?: RunSettings['updatesPerBatch'];
}

/**
 * What a practitioner reads of a run (rl/metrics.ts): the clip's fractions as means over the
 * steps, the policy's entropy at the first and the last step, seconds a step.
 */
interface Vitals {
  clipLow: number;
  clipHigh: number;
  clipRegion: number;
  entropyFirst: number;
  entropyLast: number;
  stepSeconds: number;
}

/**
 * A run as this script holds it; an exact-grader run keeps the shape it always had (no grader, no
 * true success: it is the reward). The file leaves out its summary (the tables' source only).
 */
interface Done extends Omit<Config, 'grader'> {
  seed: number;
  grader?: Grader;
  vitals: Vitals;
  heldOut: number[];
  meanReward: number[];
  trueSuccess?: number[];
  copyRate: number[];
  malformed: number[];
  /**
   * Per step, the share of zero-spread groups, of all-fail groups and of correct first calls
   * pushed down (rl/figures.ts): the claims' figures, kept in the three-call agent's file only, in
   * its runs with the plate's settings.
   */
  zeroSpreadGroups?: number[];
  allFailGroups?: number[];
  correctCallsPushedDown?: number[];
  /** Beside them, over the run's steps: its groups by how many of their 8 episodes were paid, 0..8 (rl/figures.ts). */
  paidGroups?: number[];
  /** And where a step's time went (rl/scale.ts's StepTime): timings, which a re-made file does not repeat (as stepSeconds). */
  stepTime?: StepTime;
  summary: RunSummary;
}

type Only = 'plate' | 'bugs' | 'dials' | 'all';
type Checkpoints = { agent: string; pretrained: string };
/** Where an agent's reference runs are written. */
const OUT: Record<AgentName, string> = {
  'one-call': 'public/reference-runs.json',
  'three-calls': 'public/reference-runs-three-calls.json',
};

/** The three-call agent's longer worlds: the credit switches at each (at one call, the plate's settings alone). */
const LONGER: readonly EpisodeKind[] = ['two-calls', 'three-calls'];

/**
 * --only plate: the plate's own two configurations (a quick check); bugs: each grader bug with the
 * plate's credit and both calculators (with the reliable one, trusting the tool pays the true
 * result of a slipped call; a crash pays whatever the calculator does); all: both, and the credit
 * switches with the exact grader; dials: the plate's configuration at μ = 2 and 4 (all has them too).
 * The three-call agent: the credit switches (plate: the plate's own) at two and three calls, then
 * the plate's settings at one call.
 */
function configsFor(only: Only, agent: AgentName): Config[] {
  const configs: Config[] = [];
  if (agent === 'three-calls' && (only === 'bugs' || only === 'dials'))
    throw new Error(`--only ${only}: the three-call agent has no ${only === 'bugs' ? 'bug' : 'μ'} runs`);
  if (agent === 'one-call' && (only === 'dials' || only === 'all'))
    for (const updatesPerBatch of [2, 4] as const)
      for (const faulty of [false, true])
        configs.push({ faulty, masking: true, advantage: 'group', grader: 'exact', updatesPerBatch });
  if (only === 'dials') return configs;
  const credit = (where: Pick<Config, 'episode' | 'agent'>) => {
    for (const masking of only === 'plate' ? [true] : [true, false])
      for (const advantage of only === 'plate' ? (['group'] as const) : ADVANTAGES)
        for (const faulty of [false, true]) configs.push({ ...where, faulty, masking, advantage, grader: 'exact' });
  };
  if (agent === 'three-calls') {
    for (const episode of LONGER) credit({ episode, agent: 'three-calls' });
    // The same agent on the shortest episode: the claims' one-call column.
    for (const faulty of [false, true])
      configs.push({
        episode: 'one-call',
        agent: 'three-calls',
        faulty,
        masking: true,
        advantage: 'group',
        grader: 'exact',
      });
    return configs;
  }
  if (only !== 'bugs') credit({});
  if (only !== 'plate')
    for (const grader of ['crash-pass', 'trusts-tool'] as const)
      for (const faulty of [false, true]) configs.push({ faulty, masking: true, advantage: 'group', grader });
  return configs;
}

/** A run with the plate's credit and grader (at μ = 1): the claims' runs, in any world. */
const isPlateCredit = (c: Config): boolean =>
  c.masking && c.advantage === 'group' && c.grader === 'exact' && (c.updatesPerBatch ?? 1) === 1;

/** A run's steps' groups by how many of their episodes were paid, summed over the steps. */
const paidGroupsOf = (grpo: readonly GrpoRecord[]): number[] =>
  grpo
    .map((s) =>
      paidCounts(
        s.episodes.map((e) => e.reward),
        GRPO.episodesPerSum,
      ),
    )
    .reduce((sum, c) => sum.map((x, n) => x + c[n]!));

/** Medians over a run's steps of where its time went, and what the update and an episode hold (StepTime). */
function stepTimeOf(grpo: readonly GrpoRecord[]): StepTime {
  const at = (f: (s: GrpoRecord) => number) => Math.round(median(grpo.map(f)) * 10) / 10;
  const updateChars = (s: GrpoRecord) =>
    updateRows(s.episodes.map((e) => e.advantage)).reduce((n, i) => n + s.episodes[i]!.text.length, 0);
  return {
    samplingMs: at((s) => s.timeSplit.sampling),
    updateMs: at((s) => s.timeSplit.update),
    evaluationMs: at((s) => s.timeSplit.evaluation),
    updateChars: at(updateChars),
    episodeChars: at((s) => s.episodes.reduce((n, e) => n + e.text.length, 0) / s.episodes.length),
  };
}

/** One configuration over the seeds, as the file holds its runs. */
async function runConfig(
  config: Config,
  seeds: number[],
  steps: number,
  checkpoints: Checkpoints,
  agent: AgentName,
): Promise<Done[]> {
  const done: Done[] = [];
  for (const seed of seeds) {
    const r = await runWorkshop({ start: 'agent', seed, steps, checkpoints, ...config, temperature: 1 });
    const grpo = r.records.slice(1);
    const share = (k: 'copied' | 'malformed') => grpo.map((s) => s[k] / s.episodes.length);
    const { grader, updatesPerBatch, ...credit } = config;
    // A step's group shares are eighths: three places keep them exact.
    const eighths = (k: 'zeroSpreadGroups' | 'allFailGroups') => grpo.map((s) => Math.round(s[k]! * 1e3) / 1e3);
    const metrics = grpo.map((s) => stepMetrics({ ...s, sampled: s.episodes.length })!);
    const over = (k: 'clip_ratio/low_mean' | 'clip_ratio/high_mean' | 'clip_ratio/region_mean') =>
      round(mean(metrics, (m) => m[k])!);
    done.push({
      seed,
      ...credit,
      ...(grader !== 'exact' && { grader }),
      ...(updatesPerBatch !== undefined && updatesPerBatch !== 1 && { updatesPerBatch }),
      vitals: {
        clipLow: over('clip_ratio/low_mean'),
        clipHigh: over('clip_ratio/high_mean'),
        clipRegion: over('clip_ratio/region_mean'),
        entropyFirst: round(metrics[0]!.entropy),
        entropyLast: round(metrics.at(-1)!.entropy),
        stepSeconds: round(r.grpo.seconds / grpo.length),
      },
      heldOut: r.heldOut.map(round),
      meanReward: r.meanReward.map(round),
      ...(grader !== 'exact' && { trueSuccess: r.trueSuccess.map(round) }),
      copyRate: share('copied').map(round),
      malformed: share('malformed').map(round),
      // The claims read these from the three-call agent's file alone, its plate-settings runs: the
      // one-call file, fetched on every first visit, leaves them out. As precise as the page draws
      // them (a percent): a step's group shares are eighths; the share pushed down to two places.
      ...(agent === 'three-calls' &&
        isPlateCredit(config) && {
          zeroSpreadGroups: eighths('zeroSpreadGroups'),
          allFailGroups: eighths('allFailGroups'),
          correctCallsPushedDown: grpo.map((s) => Math.round(s.correctCallsPushedDown! * 1e2) / 1e2),
          paidGroups: paidGroupsOf(grpo),
          stepTime: stepTimeOf(grpo),
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
    `| ${config.episode ? `${config.episode}, the ${config.agent} agent, ` : ''}${config.faulty ? 'faulty' : 'reliable'} | ${config.masking ? 'on' : 'off'} | ${config.advantage === 'group' ? 'group-relative' : 'raw reward'} | ${config.grader}${config.updatesPerBatch ? `, μ = ${config.updatesPerBatch}` : ''} | ` +
    `${done.map((d) => `${pct(d.summary.heldOutStart)} → ${pct(d.summary.heldOutEnd)}`).join(', ')} | ${m((d) => d.summary.heldOutEnd)} | ` +
    `${m((d) => d.summary.rewardFirst5)} → ${m((d) => d.summary.rewardLast5)} | ${m((d) => first5(truth(d)))} → ${m((d) => last5(truth(d)))} | ` +
    `${m((d) => last5(d.copyRate))} | ${m((d) => last5(d.malformed))} |`
  );
}

const DIALS_HEAD = [
  '| μ | calculator | held-out end per seed | mean | reward last 5 | clipped: low / high / region (mean over steps) | entropy first → last | seconds a step |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
];

/** A row of docs/results.md's μ table: the plate's credit and grader, one μ and calculator. */
function dialsRow(config: Config, done: Done[]): string {
  const m = (f: (d: Done) => number) => mean(done, f)!;
  const p1 = (x: number) => `${(100 * x).toFixed(1)}%`;
  return (
    `| ${config.updatesPerBatch ?? 1} | ${config.faulty ? 'faulty' : 'reliable'} | ` +
    `${done.map((d) => pct(d.summary.heldOutEnd)).join(', ')} | ${pct(m((d) => d.summary.heldOutEnd))} | ${pct(m((d) => d.summary.rewardLast5))} | ` +
    `${p1(m((d) => d.vitals.clipLow))} / ${p1(m((d) => d.vitals.clipHigh))} / ${p1(m((d) => d.vitals.clipRegion))} | ` +
    `${m((d) => d.vitals.entropyFirst).toFixed(2)} → ${m((d) => d.vitals.entropyLast).toFixed(2)} | ${m((d) => d.vitals.stepSeconds).toFixed(3)} |`
  );
}

/** A run as the file stores it: without the summary the printed tables were made from. */
const stored = ({ summary: _, ...run }: Done): Omit<Done, 'summary'> => run;

/** --only bugs: the new runs replace their twins in `out`; the file's other runs stay exactly as they were. */
function mergeInto(out: string, runs: Done[]): void {
  type Stored = Omit<Done, 'summary'>;
  const old = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as { runs: Stored[] }) : null;
  if (!old) throw new Error(`--only bugs merges into ${out}, which does not exist; run without --only first`);
  const same = (x: Stored, y: Stored) =>
    x.seed === y.seed &&
    x.episode === y.episode &&
    x.agent === y.agent &&
    x.faulty === y.faulty &&
    x.masking === y.masking &&
    x.advantage === y.advantage &&
    (x.grader ?? 'exact') === (y.grader ?? 'exact') &&
    (x.updatesPerBatch ?? 1) === (y.updatesPerBatch ?? 1);
  writeFileSync(
    out,
    JSON.stringify({
      ...old,
      runs: [...old.runs.filter((o) => !runs.some((n) => same(o, n))), ...runs.map(stored)],
    }) + '\n',
  );
  console.log(`merged ${runs.length} runs into ${out}`);
}

/** Fine-tuning the shipped worksheet model per seed: held-out success where measured, the loss per step. */
async function sftReferenceRuns(seeds: number[], checkpoints: Checkpoints, agent: AgentName) {
  const runs = [];
  for (const seed of seeds) {
    const heldOut: number[] = [];
    const loss: number[] = [];
    // In the agent's own world, the longest it plays: what its fine-tuning scores held-out success in.
    const where = { episode: agent, agent };
    const r = await runWorkshop({ start: 'pretrained', seed, steps: 1, checkpoints, ...where }, ({ stage, record }) => {
      if (stage !== 'sft') return;
      if (record.heldOut) heldOut.push(round(record.heldOut.success));
      if (record.loss !== null) loss.push(round(record.loss));
    });
    console.log(
      `fine-tuning the shipped worksheet model, seed ${seed}: held-out ${pct(r.sftHeldOut!)} after ${AGENT_RECIPES[agent].sft.steps} steps`,
    );
    runs.push({ seed, heldOut, loss });
  }
  return runs;
}

await main(async () => {
  const seeds = seedList('seeds', a.seeds!);
  const steps = intOption('steps', a.steps, GRPO.steps, 1);
  const only = oneOf('only', a.only, ['plate', 'bugs', 'dials', 'all'] as const, 'all');
  const agent = oneOf('agent', a.agent, AGENT_NAMES, 'one-call');
  const backend = await setNodeBackend('wasm');
  const shipped = shippedFor(agent);
  const checkpoints = { agent: a.checkpoint ?? shipped.agent, pretrained: a.pretrained ?? shipped.pretrained };
  const out = a.out ?? OUT[agent];
  const runs: Done[] = [];
  for (const l of TABLE_HEAD) console.log(l);
  const dials: string[] = [];
  for (const config of configsFor(only, agent)) {
    const done = await runConfig(config, seeds, steps, checkpoints, agent);
    console.log(tableRow(config, done));
    // The μ table: the plate's credit at each μ, in the one-call file.
    if (config.masking && config.advantage === 'group' && config.grader === 'exact' && !config.episode)
      dials.push(dialsRow(config, done));
    runs.push(...done);
  }
  for (const l of [...DIALS_HEAD, ...dials]) console.log(l);
  if (only === 'bugs' || only === 'dials') return mergeInto(out, runs);
  const sftRuns = await sftReferenceRuns(seedList('sft-seeds', a['sft-seeds']!), checkpoints, agent);
  writeFileSync(
    out,
    JSON.stringify({
      note: `Precomputed reference runs (scripts/reference-runs.ts, Node, wasm backend): GRPO from the shipped agent per configuration, and fine-tuning of the shipped worksheet model${agent === 'three-calls' ? ': the three-call agent at one, two and three calls (each run names its episode), its fine-tuning scored at three calls' : ''}. Not live.`,
      ...(agent === 'three-calls' && { agent }),
      checkpoint: checkpoints.agent,
      backend,
      steps,
      runs: runs.map(stored),
      sft: { steps: AGENT_RECIPES[agent].sft.steps, every: STAGE_EVAL_EVERY, runs: sftRuns },
    }) + '\n',
  );
  console.log(`wrote ${out}`);
});
