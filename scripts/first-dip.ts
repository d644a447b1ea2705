// npm run first-dip -- [--seeds 1-5] [--steps 40] [--faulty] [--only plate,warmup10,…] [--json]
// Why held-out success dips in GRPO's first steps (the default run: 80% → 53% at step 2, then up
// to 83%), measured: GRPO from the shipped agent at each seed under the plate's recipe and under
// ablations that each change one thing — the learning rate warmed up over the first 5 or 10 steps,
// a smaller learning rate, Adam's moments filled on 5 batches before the weights first move (the
// same lr, the same Adam), twice the episodes per sum (a less noisy gradient, the same step size),
// a cooler sampling temperature. Per ablation and seed it prints: held-out at the start, its
// minimum over the first 5 moving steps (and at which step), the dip in points, held-out at the
// end, the mean sampled reward over the first and the last 5 steps, and how far the update moved
// the policy (the mean |Δ log p| over the batch's model characters, first step, steps 1–5 and
// the last 10) and the weights (the mean |Δw| over all 104,208, in units of the plate's lr 3e-4:
// Adam moves a weight by about lr or less a step, and by about exactly lr at step 1, when its
// moments hold one gradient), and the lowest held-out over the first 15 moving steps (a dip
// only delayed); then a summary line per ablation: the mean dip, the seeds that dip ≥ 10 points, the mean end.
// The figures behind src/ui/figure/run/first-dip.ts and docs/results.md ("The first dip").
// With --json the last line is every row as one JSON object. ~2.5 s a run on the WASM backend.
import * as tf from '@tensorflow/tfjs';
import { GRPO, type GrpoConfig } from '../src/config';
import { intOption, main, parseOptions, seedsOption } from '../src/node/args';
import { runWorkshop } from '../src/node/run-workshop';
import { PLATE_SETTINGS, type RunSettings } from '../src/pipeline/settings';
import type { GrpoRecord } from '../src/rl/grpo';
import { logpChange, modelChars } from '../src/rl/push';
import { setNodeBackend } from './lib/node-backend';

const { values: a } = parseOptions({
  options: {
    seeds: { type: 'string', default: '1-5' },
    steps: { type: 'string' },
    faulty: { type: 'boolean', default: false },
    only: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

/** One change to the plate's recipe (or none), and what it tests. */
interface Ablation {
  name: string;
  says: string;
  grpo?: Partial<GrpoConfig>;
  settings?: Partial<RunSettings>;
}

const ABLATIONS: Ablation[] = [
  { name: 'plate', says: "the plate's recipe: Adam at lr 3e-4 from step 1" },
  { name: 'warmup5', says: 'lr warmed up linearly over 5 steps', grpo: { lrWarmupSteps: 5 } },
  { name: 'warmup10', says: 'lr warmed up linearly over 10 steps', grpo: { lrWarmupSteps: 10 } },
  { name: 'lr1e-4', says: 'lr 1e-4 throughout', grpo: { lr: 1e-4 } },
  {
    name: 'hold5',
    says: "Adam's moments filled on 5 batches at lr 0 before the first move, then lr 3e-4",
    grpo: { lrHoldSteps: 5 },
  },
  {
    name: 'episodes16',
    says: '16 episodes per sum: a less noisy gradient, the same step size',
    grpo: { episodesPerSum: 16 },
  },
  { name: 'temp0.5', says: 'sampling at temperature 0.5', settings: { temperature: 0.5 } },
];

/** The first steps a dip is looked for in (after a hold's steps, which do not move the weights). */
const DIP_WINDOW = 5;
/** A longer look, for a dip an ablation only delays (a 10-step warm-up reaches the full lr at step 10). */
const LATE_WINDOW = 15;

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / Math.max(xs.length, 1);

/** The trainable weights as they are now, by variable name. */
const weightsNow = (): Map<string, Float32Array> =>
  new Map(
    Object.entries(tf.engine().registeredVariables)
      .filter(([, v]) => v.trainable)
      .map(([name, v]) => [name, Float32Array.from(v.dataSync() as Float32Array)]),
  );

/** Mean |Δw| over every weight between two snapshots, in units of `lr`: Adam's update is at most about lr a weight. */
function weightMove(before: Map<string, Float32Array>, after: Map<string, Float32Array>, lr: number): number {
  let sum = 0;
  let n = 0;
  for (const [name, w] of after) {
    const w0 = before.get(name)!;
    for (let i = 0; i < w.length; i++) sum += Math.abs(w[i]! - w0[i]!);
    n += w.length;
  }
  return sum / Math.max(n, 1) / lr;
}

/** Mean |Δ log p| over a step's model characters: how far the update moved the policy on its own batch. */
function policyMove(r: GrpoRecord): number {
  let sum = 0;
  let n = 0;
  for (const e of r.episodes)
    for (const i of modelChars(e.authors)) {
      sum += Math.abs(logpChange(e.logp, i));
      n++;
    }
  return n > 0 ? sum / n : 0;
}

interface Row {
  ablation: string;
  seed: number;
  start: number;
  min: number;
  minStep: number;
  dip: number;
  /** The lowest held-out over the first LATE_WINDOW moving steps, and the step. */
  minLate: number;
  minLateStep: number;
  end: number;
  rewardFirst5: number;
  rewardLast5: number;
  moveFirst: number;
  moveFirst5: number;
  moveLast10: number;
  /** Mean |Δw| / lr (the plate's lr, 3e-4): the first moving step, steps 1–5, the last 10. */
  weightFirst: number;
  weightFirst5: number;
  weightLast10: number;
}

function rowOf(
  ablation: string,
  seed: number,
  records: readonly GrpoRecord[],
  hold: number,
  weightMoves: readonly number[],
): Row {
  const pts = (x: number) => Math.round(1000 * x) / 10;
  const start = records[hold]!;
  const lowest = (rs: readonly GrpoRecord[]) => rs.reduce((m, r) => (r.heldOut < m.heldOut ? r : m), rs[0]!);
  const window = records.slice(hold + 1, hold + 1 + DIP_WINDOW);
  const low = lowest(window);
  const late = lowest(records.slice(hold + 1, hold + 1 + LATE_WINDOW));
  const moving = records.slice(hold + 1);
  return {
    ablation,
    seed,
    start: pts(start.heldOut),
    min: pts(low.heldOut),
    minStep: low.step - hold,
    dip: pts(Math.max(0, start.heldOut - low.heldOut)),
    minLate: pts(late.heldOut),
    minLateStep: late.step - hold,
    end: pts(records.at(-1)!.heldOut),
    rewardFirst5: pts(mean(window.map((r) => r.meanReward!))),
    rewardLast5: pts(mean(moving.slice(-5).map((r) => r.meanReward!))),
    moveFirst: policyMove(moving[0]!),
    moveFirst5: mean(moving.slice(0, DIP_WINDOW).map(policyMove)),
    moveLast10: mean(moving.slice(-10).map(policyMove)),
    weightFirst: weightMoves[hold]!,
    weightFirst5: mean(weightMoves.slice(hold, hold + DIP_WINDOW)),
    weightLast10: mean(weightMoves.slice(-10)),
  };
}

await main(async () => {
  await setNodeBackend('wasm');
  const steps = intOption('steps', a.steps, GRPO.steps, DIP_WINDOW);
  const seeds = seedsOption('seeds', a.seeds!);
  const only = a.only?.split(',');
  const chosen = ABLATIONS.filter((x) => !only || only.includes(x.name));
  if (chosen.length === 0) throw new Error(`--only names none of ${ABLATIONS.map((x) => x.name).join(', ')}`);
  const rows: Row[] = [];
  const summaries: string[] = [];
  for (const ab of chosen) {
    const grpo: GrpoConfig = { ...GRPO, ...ab.grpo };
    const settings: RunSettings = { ...PLATE_SETTINGS, faulty: a.faulty!, ...ab.settings };
    console.log(`${ab.name}: ${ab.says}${a.faulty ? ', faulty calculator' : ''}`);
    const mine: Row[] = [];
    for (const seed of seeds) {
      // A hold's steps leave the weights where they were: the run is that much longer, so the
      // weights move for `steps` steps as in the others.
      // weightMoves[k]: how far step k + 1 moved the weights.
      const weightMoves: number[] = [];
      let last: Map<string, Float32Array> | null = null;
      const { records } = await runWorkshop({ ...settings, seed, steps: steps + grpo.lrHoldSteps, grpo }, (rec) => {
        if (rec.stage !== 'grpo') return;
        const now = weightsNow();
        if (last) weightMoves.push(weightMove(last, now, GRPO.lr));
        last = now;
      });
      const r = rowOf(ab.name, seed, records, grpo.lrHoldSteps, weightMoves);
      mine.push(r);
      console.log(
        `  seed ${seed}: held-out ${r.start}% → min ${r.min}% at step ${r.minStep} (dip ${r.dip} points), lowest in steps 1–${LATE_WINDOW} ${r.minLate}% at step ${r.minLateStep} → end ${r.end}%;` +
          ` reward first 5 ${r.rewardFirst5}%, last 5 ${r.rewardLast5}%;` +
          ` policy move |Δ log p| step 1 ${r.moveFirst.toFixed(4)}, steps 1–5 ${r.moveFirst5.toFixed(4)}, last 10 ${r.moveLast10.toFixed(4)};` +
          ` weight move |Δw|/3e-4 step 1 ${r.weightFirst.toFixed(2)}, steps 1–5 ${r.weightFirst5.toFixed(2)}, last 10 ${r.weightLast10.toFixed(2)}`,
      );
    }
    rows.push(...mine);
    const big = mine.filter((r) => r.dip >= 10).map((r) => r.seed);
    const line =
      `${ab.name}: dips ${mine.map((r) => r.dip.toFixed(0)).join(' ')}, mean ${mean(mine.map((r) => r.dip)).toFixed(1)} points;` +
      ` ≥ 10 points at ${big.length} of ${mine.length} seeds${big.length ? ` (${big.join(', ')})` : ''};` +
      ` lowest in steps 1–${LATE_WINDOW} ${mine.map((r) => r.minLate.toFixed(0)).join(' ')};` +
      ` end ${mine.map((r) => r.end.toFixed(0)).join(' ')}, mean ${mean(mine.map((r) => r.end)).toFixed(1)}%;` +
      ` reward first 5 ${mean(mine.map((r) => r.rewardFirst5)).toFixed(1)}%, last 5 ${mean(mine.map((r) => r.rewardLast5)).toFixed(1)}%;` +
      ` policy move step 1 ${mean(mine.map((r) => r.moveFirst)).toFixed(4)}, steps 1–5 ${mean(mine.map((r) => r.moveFirst5)).toFixed(4)}, last 10 ${mean(mine.map((r) => r.moveLast10)).toFixed(4)};` +
      ` weight move |Δw|/3e-4 step 1 ${mean(mine.map((r) => r.weightFirst)).toFixed(2)}, steps 1–5 ${mean(mine.map((r) => r.weightFirst5)).toFixed(2)}, last 10 ${mean(mine.map((r) => r.weightLast10)).toFixed(2)}`;
    summaries.push(line);
    console.log(`  ${line}`);
  }
  console.log(`\nseeds ${a.seeds}, ${steps} steps, ${a.faulty ? 'faulty' : 'reliable'} calculator:`);
  for (const s of summaries) console.log(`  ${s}`);
  if (a.json) console.log(JSON.stringify({ seeds, steps, faulty: a.faulty, rows }));
});
