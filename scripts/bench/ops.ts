// Kernel counts per phase: on WASM each kernel costs bookkeeping however small its tensors
// (~5 µs alone, ~15–20 µs on average inside a forward or a recorded backward here), so for this
// model's small tensors the number of kernels sets much of the time besides the matmuls.
// Counts are deterministic (same checkpoint, same seed, same count), unlike timings on a shared
// machine, so they are the figure to drive down. tf.profile records every kernel the engine runs;
// custom-gradient wrappers are recorded too, under their scope's name, and are left out here.
import * as tf from '@tensorflow/tfjs';
import { AGENT_RECIPE, GRPO } from '../../src/config';
import { SupervisedStage } from '../../src/agent/stage';
import { initialModel } from '../../src/agent/train';
import { PROMPT_LENGTH } from '../../src/env/episode';
import { SPLIT, type Sum } from '../../src/env/sums';
import { reliableCalculator } from '../../src/env/calculator';
import { createRng, shuffled } from '../../src/lib/rng';
import { adam } from '../../src/model/adam';
import type { CharModel } from '../../src/model/gpt';
import { batchAdvantages } from '../../src/rl/advantages';
import { evaluationRows } from '../../src/rl/evaluate';
import { rollout, rolloutRows, type Policy, type RolloutRow } from '../../src/rl/rollout';
import { GrpoStage } from '../../src/rl/grpo';
import { policyUpdate } from '../../src/rl/update';
import { loadCheckpoint } from '../../src/node/checkpoint-fs';
import type { SupervisedStageName } from '../../src/agent/stage';

interface KernelCount {
  kernels: number;
  /** Kernel name → how many times it ran, most frequent first. */
  byName: Record<string, number>;
}

/** Kernels that `f` runs (registered backend kernels only; custom-gradient scopes are not kernels). */
async function countKernels<T>(f: () => Promise<T>): Promise<KernelCount & { result: T }> {
  const check = tf.env().getBool('CHECK_COMPUTATION_FOR_ERRORS');
  tf.env().set('CHECK_COMPUTATION_FOR_ERRORS', false); // else every kernel's output is read back
  try {
    let result!: T;
    const info = await tf.profile(async () => {
      result = await f();
      return [];
    });
    const names = info.kernels.map((k) => k.name).filter((n) => tf.getKernel(n, tf.getBackend()) !== undefined);
    const byName: Record<string, number> = {};
    for (const n of names) byName[n] = (byName[n] ?? 0) + 1;
    const sorted = Object.fromEntries(Object.entries(byName).sort((p, q) => q[1] - p[1]));
    return { kernels: names.length, byName: sorted, result };
  } finally {
    tf.env().set('CHECK_COMPUTATION_FOR_ERRORS', check);
  }
}

interface RolloutCount extends KernelCount {
  /** Model calls in the rollout (each one a forward over the batch). */
  forwards: number;
  /** Characters the rows advanced after the prompt (the longest transcript's). */
  positions: number;
}

export interface OpCounts {
  /** One rollout of 8 training sums × 8 episodes, sampled (what a GRPO step samples). */
  sample: RolloutCount;
  /** Greedy rollout of the 30 held-out sums on its own. */
  evaluate: RolloutCount;
  /** The runner's shared batch: the 30 held-out rows and the next step's 64 sampled rows. */
  evaluateAndSample: RolloutCount;
  /** One policy update on the sampled episodes: forward, backward, Adam. */
  update: KernelCount;
  /** One whole GRPO step as the runner runs it (sample, update, evaluate). */
  grpoStep: KernelCount;
  /** One supervised optimiser step of each stage. */
  pretrainStep: KernelCount;
  sftStep: KernelCount;
}

/** Wraps a model so that its forward calls are counted (its frozen copy's too). */
function counted(model: CharModel): { policy: Policy; calls: () => number } {
  let n = 0;
  const count = <F extends (...a: never[]) => unknown>(f: F) => ((...a: Parameters<F>) => (n++, f(...a))) as F;
  const policy: Policy = {
    config: model.config,
    forward: count(model.forward.bind(model)),
    frozen: () => {
      const f = model.frozen();
      return { ...f, forward: count(f.forward) };
    },
  };
  return { policy, calls: () => n };
}

async function countRollout(model: CharModel, rows: RolloutRow[]): Promise<RolloutCount> {
  const { policy, calls } = counted(model);
  const { result, ...count } = await countKernels(() => rolloutRows(policy, rows, { temperature: GRPO.temperature, rng: createRng(1) }));
  return { ...count, forwards: calls(), positions: Math.max(...result.map((e) => e.text.length)) - PROMPT_LENGTH };
}

async function countSupervised(stage: SupervisedStageName): Promise<KernelCount> {
  const model = initialModel(AGENT_RECIPE);
  const runner = new SupervisedStage({ model, recipe: AGENT_RECIPE, stage, seed: AGENT_RECIPE.seed, evalEvery: 0 });
  try {
    await runner.next(); // warm-up: Adam creates its slots
    const { result: _, ...count } = await countKernels(() => runner.next());
    return count;
  } finally {
    runner.dispose();
    model.dispose();
  }
}

export async function opCounts(checkpoint: string): Promise<OpCounts> {
  const { model } = loadCheckpoint(checkpoint);
  const optimizer = adam(GRPO.lr);
  const runner = new GrpoStage({ model, config: GRPO, seed: 1 });
  try {
    const sums = shuffled(SPLIT.train, createRng(1)).slice(0, GRPO.sumsPerStep);
    const rows = sums.flatMap((s) => Array<Sum>(GRPO.episodesPerSum).fill(s));
    const sampled = rows.map((sum) => ({ sum, calculator: reliableCalculator, grader: 'exact' as const, greedy: false }));
    const sample = await countRollout(model, sampled);
    const evaluate = await countRollout(model, evaluationRows(SPLIT.heldOut));
    const evaluateAndSample = await countRollout(model, [...evaluationRows(SPLIT.heldOut), ...sampled]);
    const episodes = await rollout(model, rows, { calculator: reliableCalculator, temperature: GRPO.temperature, greedy: false, rng: createRng(1) });
    const advantages = batchAdvantages(episodes.map((e) => e.reward), GRPO.episodesPerSum, GRPO);
    await policyUpdate({ model, optimizer, episodes, advantages, config: GRPO, step: 1 }); // warm-up: Adam's slots
    const { result: _u, ...update } = await countKernels(() => policyUpdate({ model, optimizer, episodes, advantages, config: GRPO, step: 2 }));
    await runner.initial();
    await runner.next(); // warm-up
    const { result: _s, ...grpoStep } = await countKernels(() => runner.next());
    return { sample, evaluate, evaluateAndSample, update, grpoStep, pretrainStep: await countSupervised('pretrain'), sftStep: await countSupervised('sft') };
  } finally {
    runner.dispose();
    optimizer.dispose();
    model.dispose();
  }
}

/** The lines `npm run bench` prints for the counts. */
export function formatOpCounts(c: OpCounts): string[] {
  const per = (r: RolloutCount) => `${r.kernels} kernels, ${r.forwards} forwards over ${r.positions} positions: ${(r.kernels / r.positions).toFixed(1)} kernels per position`;
  return [
    `sample (64 rows, sampled):   ${per(c.sample)}`,
    `evaluate (30 rows, greedy):  ${per(c.evaluate)}`,
    `both in one batch (94 rows): ${per(c.evaluateAndSample)}`,
    `policy update (fwd+bwd+Adam): ${c.update.kernels} kernels`,
    `whole GRPO step:             ${c.grpoStep.kernels} kernels`,
    `pre-training step:           ${c.pretrainStep.kernels} kernels`,
    `fine-tuning step:            ${c.sftStep.kernels} kernels`,
  ];
}
