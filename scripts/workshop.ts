// npm run workshop -- [--episode one-call|two-calls|three-calls] [--agent own|one-call|three-calls] [--start agent|pretrained|scratch] [--faulty] [--masking on|off]
//                     [--advantage group|raw] [--temperature 0.5|1|1.5] [--grader exact|crash-pass|trusts-tool]
//                     [--updates-per-batch 1|2|4] [--tool-latency-ms 0|50|200]
//                     (the reader's settings, as src/pipeline/settings.ts lists them and the URL writes them)
//                     [--seed N] [--steps 40] [--backend wasm|cpu] [--checkpoint DIR] [--pretrained DIR] [--json]
//                     [--pretrain-steps N] [--sft-steps N]   (shorter stages, for quick checks)
//                     [--separate-batches]   (the evaluation and the next step's sampling apart, each timed on its own)
// The plate's pipeline, headless: from the shipped agent (default), or fine-tuning the shipped
// worksheet model first, or pre-training from random weights first — then GRPO. One line per
// GRPO step (and every 25 supervised steps), then the readouts. With --json the last line is one
// JSON object with the whole run: the configuration (`agent`: the agent that played, by name), the readouts, the per-step curves (held-out,
// mean reward, true success), where a GRPO step's time goes (median ms per part, steps 1..n), per
// step the metrics under TRL's names (`metrics`), and per step the share of zero-spread groups, of
// them those that all failed and those all paid, and of correct first calls pushed down
// (`zeroSpreadGroups`, `allFailGroups`, `allPassGroups`, `correctCallsPushedDown`).
import { median } from 'd3';
import { AGENT_RECIPES, DEFAULT_SEED, GRPO, type AgentRecipe } from '../src/config';
import { agentOf } from '../src/env/world';
import { PLATE_SETTINGS, settingsLabel, SETTINGS, type RunSettings } from '../src/pipeline/settings';
import { intOption, main, oneOf, parseOptions } from '../src/node/args';
import { SETTING_OPTIONS, settingsAsWritten, settingsGiven } from './lib/setting-options';
import { setNodeBackend } from './lib/node-backend';
import { shippedFor } from '../src/node/checkpoint-fs';
import { runWorkshop } from '../src/node/run-workshop';
import type { StageRecord } from '../src/pipeline/run';
import type { GrpoRecord } from '../src/rl/grpo';
import { stepMetrics } from '../src/rl/metrics';

const { values: a } = parseOptions({
  options: {
    ...SETTING_OPTIONS,
    'separate-batches': { type: 'boolean', default: false },
    seed: { type: 'string' },
    steps: { type: 'string' },
    backend: { type: 'string' },
    checkpoint: { type: 'string' },
    pretrained: { type: 'string' },
    json: { type: 'boolean', default: false },
    'pretrain-steps': { type: 'string' },
    'sft-steps': { type: 'string' },
  },
});

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;

/** One line per GRPO step, and every 25 supervised steps. */
function logRecord({ stage, record: r }: StageRecord): void {
  if (stage !== 'grpo') {
    const score = r.heldOut
      ? `  held-out ${pct(r.heldOut.success)}`
      : r.worksheet
        ? `  single-digit sums ${pct(r.worksheet.success)}`
        : '';
    if (r.step % 25 === 0 || r.step === r.steps)
      console.log(
        `${stage} ${String(r.step).padStart(3)}/${r.steps}${r.loss === null ? '' : `  loss ${r.loss.toFixed(3)}`}${score}`,
      );
    return;
  }
  const t = r.timings;
  const w = r.timeSplit;
  console.log(
    `step ${String(r.step).padStart(2)}  held-out ${pct(r.heldOut).padStart(4)}` +
      (r.meanReward === null
        ? ''
        : `  reward ${pct(r.meanReward).padStart(4)}  true ${pct(r.trueSuccess!).padStart(4)}  zero-spread ${pct(r.zeroSpreadGroups!).padStart(4)}  correct calls pushed down ${pct(r.correctCallsPushedDown!).padStart(4)}  clip ${r.clip!.region.toFixed(2)}  entropy ${r.entropy!.toFixed(2)}  lies ${r.lies}/${r.calls}  copies ${r.copied}  malformed ${r.malformed}`) +
      `  ${t.total.toFixed(0)} ms (sample ${t.sample.toFixed(0)}, grad ${t.gradient.toFixed(0)}, eval ${t.evaluate.toFixed(0)}; ` +
      `its own: sampling ${w.sampling.toFixed(0)}, update ${w.update.toFixed(0)}, evaluation ${w.evaluation.toFixed(0)})`,
  );
}

/** Where a GRPO step's time goes: the median of each part over steps 1..n (step 0 only evaluates), in ms to a tenth. */
function medianSplit(records: readonly GrpoRecord[]): Record<'sampling' | 'update' | 'evaluation', number> {
  const stepped = records.slice(1);
  const ms = (k: 'sampling' | 'update' | 'evaluation') =>
    Math.round(10 * (median(stepped, (r) => r.timeSplit[k]) ?? NaN)) / 10;
  return { sampling: ms('sampling'), update: ms('update'), evaluation: ms('evaluation') };
}

type WorldFigure = 'zeroSpreadGroups' | 'allFailGroups' | 'allPassGroups' | 'correctCallsPushedDown';

/** A figure of every GRPO step 1..n, to four places (a step's group shares are eighths: exact). */
const perStep = (records: readonly GrpoRecord[], k: WorldFigure): number[] =>
  records.slice(1).map((r) => Math.round(r[k]! * 1e4) / 1e4);

/** The figures per GRPO step that show what grows with the episode (src/rl/figures.ts). */
const worldFigures = (records: readonly GrpoRecord[]) => ({
  zeroSpreadGroups: perStep(records, 'zeroSpreadGroups'),
  allFailGroups: perStep(records, 'allFailGroups'),
  allPassGroups: perStep(records, 'allPassGroups'),
  correctCallsPushedDown: perStep(records, 'correctCallsPushedDown'),
});

await main(async () => {
  const settings: RunSettings = { ...PLATE_SETTINGS, ...settingsGiven(a) };
  const seed = intOption('seed', a.seed, DEFAULT_SEED);
  const steps = intOption('steps', a.steps, GRPO.steps, 1);
  const backend = await setNodeBackend(oneOf('backend', a.backend, ['wasm', 'cpu'] as const, 'wasm'));
  console.log(
    `workshop: from ${SETTINGS.start.choiceLabels[settings.start]}, ${settingsLabel({ ...settings, start: 'agent' })}, seed ${seed}, ${steps} steps, backend ${backend}` +
      (a['separate-batches'] ? ', evaluation and sampling in separate batches' : ''),
  );
  const r0 = AGENT_RECIPES[agentOf(settings)];
  const recipe: AgentRecipe = {
    ...r0,
    pretrain: { ...r0.pretrain, steps: intOption('pretrain-steps', a['pretrain-steps'], r0.pretrain.steps, 1) },
    sft: { ...r0.sft, steps: intOption('sft-steps', a['sft-steps'], r0.sft.steps, 1) },
  };
  const shipped = shippedFor(agentOf(settings));
  const checkpoints = { agent: a.checkpoint ?? shipped.agent, pretrained: a.pretrained ?? shipped.pretrained };
  const grpo = { ...GRPO, shareBatch: !a['separate-batches'] };
  const run = await runWorkshop({ ...settings, seed, steps, checkpoints, recipe, grpo }, logRecord);
  const g = run.grpo;
  const timeSplit = { ...medianSplit(run.records), sharedBatch: grpo.shareBatch };
  const summary = {
    ...settingsAsWritten(settings),
    // The agent that played (the settings' `own` resolved): one-call or three-calls.
    agent: agentOf(settings),
    seed,
    steps,
    backend,
    ...g,
    heldOut: run.heldOut,
    meanReward: run.meanReward,
    trueSuccess: run.trueSuccess,
    ...worldFigures(run.records),
    timeSplit,
    // Per GRPO step, TRL's names for what a practitioner reads (src/rl/metrics.ts).
    metrics: run.records.flatMap((r) => stepMetrics({ ...r, sampled: r.episodes.length }) ?? []),
    sftHeldOut: run.sftHeldOut,
    agentDigest: run.agentDigest,
    stageSeconds: run.seconds,
  };
  const sft = run.sftHeldOut === null ? '' : `fine-tuned agent ${pct(run.sftHeldOut)} held-out; `;
  const perStage = Object.entries(run.seconds)
    .map(([s, sec]) => `${s} ${sec!.toFixed(1)} s`)
    .join(', ');
  const truth = run.trueSuccess.slice(-5);
  console.log(
    `${sft}held-out ${pct(g.heldOutStart)} → ${pct(g.heldOutEnd)}; mean reward, last 5 steps ${pct(g.rewardLast5)} (first 5: ${pct(g.rewardFirst5)}); ` +
      `true success, last 5 steps ${pct(truth.reduce((s, x) => s + x, 0) / Math.max(truth.length, 1))}; ${perStage}; ` +
      `a GRPO step (median ms): sampling ${timeSplit.sampling}, update ${timeSplit.update}, evaluation ${timeSplit.evaluation}`,
  );
  if (a.json) console.log(JSON.stringify(summary));
});
