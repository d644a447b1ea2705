/**
 * The agent recipe: pre-train the character model on single-digit worksheets, then fine-tune
 * it on exactly 30 demonstrations of the calculator call (loss on the model's own characters).
 * Runs the same in Node (scripts/train-agent.ts) and in a browser worker.
 */
import * as tf from '@tensorflow/tfjs';
import type { AgentRecipe } from '../config';
import { demonstrationFor } from '../env/episode';
import { SPLIT } from '../env/sums';
import { worksheetRow } from '../env/worksheets';
import { createRng, type Rng } from '../lib/rng';
import { CharModel } from '../model/gpt';
import { disposeBatch, makeTokenBatch, supervisedStep } from '../model/supervised';
import { PAD } from '../model/vocab';
import { evaluateGreedy } from '../rl/evaluate';

export type Phase = 'pretrain' | 'sft';
export interface Progress {
  phase: Phase;
  step: number;
  steps: number;
  loss: number;
}

export interface PhaseLog {
  steps: number;
  /** Early stopping: the step whose weights were kept, and its validation success. */
  selected?: { step: number; validation: number };
  firstLoss: number;
  lastLoss: number;
  seconds: number;
}

/** Worksheet rows of the full context; every character after `^` is a target. */
function worksheetBatch(rng: Rng, n: number, recipe: AgentRecipe) {
  const rows = Array.from({ length: n }, () => worksheetRow(rng, recipe.model.context, recipe.pretrain.format));
  return { rows, weight: (row: number, j: number) => (rows[row]![j + 1] !== PAD ? 1 : 0) };
}

export async function pretrain(model: CharModel, recipe: AgentRecipe, rng: Rng, onProgress?: (p: Progress) => void): Promise<PhaseLog> {
  const { steps, batch, lr } = recipe.pretrain;
  const optimizer = tf.train.adam(lr);
  const t0 = performance.now();
  let firstLoss = NaN;
  let loss = NaN;
  for (let step = 1; step <= steps; step++) {
    const { rows, weight } = worksheetBatch(rng, batch, recipe);
    const b = makeTokenBatch(rows, weight);
    loss = await supervisedStep(model, optimizer, b, { dropoutSeed: rng.seed(), lr, weightDecay: 0 });
    disposeBatch(b);
    if (step === 1) firstLoss = loss;
    onProgress?.({ phase: 'pretrain', step, steps, loss });
  }
  optimizer.dispose();
  return { steps, firstLoss, lastLoss: loss, seconds: (performance.now() - t0) / 1000 };
}

export async function fineTune(model: CharModel, recipe: AgentRecipe, rng: Rng, onProgress?: (p: Progress) => void): Promise<PhaseLog> {
  const { steps, lr, weightDecay, worksheetRows, demonstrations, selectEvery } = recipe.sft;
  const demos = SPLIT.demonstrations.slice(0, demonstrations).map(demonstrationFor);
  const optimizer = tf.train.adam(lr);
  const best = new BestOnValidation();
  const t0 = performance.now();
  let firstLoss = NaN;
  let loss = NaN;
  for (let step = 1; step <= steps; step++) {
    const sheets = worksheetBatch(rng, worksheetRows, recipe);
    const rows = [...demos.map((d) => d.text), ...sheets.rows];
    const weight = (row: number, j: number) =>
      row < demos.length ? (demos[row]!.authors[j + 1] === 'model' ? 1 : 0) : sheets.weight(row - demos.length, j);
    const b = makeTokenBatch(rows, weight);
    loss = await supervisedStep(model, optimizer, b, { dropoutSeed: rng.seed(), lr, weightDecay });
    disposeBatch(b);
    if (step === 1) firstLoss = loss;
    onProgress?.({ phase: 'sft', step, steps, loss });
    if (selectEvery > 0 && (step % selectEvery === 0 || step === steps)) await best.consider(model, step);
  }
  optimizer.dispose();
  const selected = best.restoreInto(model);
  return { steps, firstLoss, lastLoss: loss, seconds: (performance.now() - t0) / 1000, ...(selected && { selected }) };
}

/** Keeps a copy of the weights with the best greedy success on the validation sums. */
class BestOnValidation {
  private weights: tf.Tensor[] | null = null;
  private best = { step: 0, validation: -1 };

  async consider(model: CharModel, step: number): Promise<void> {
    const { success } = await evaluateGreedy(model, SPLIT.validation);
    if (success < this.best.validation) return;
    tf.dispose(this.weights ?? []);
    this.weights = model.trainable.map((v) => tf.clone(v));
    this.best = { step, validation: success };
  }

  /** Puts the kept weights back; returns which step they came from (null if none kept). */
  restoreInto(model: CharModel): { step: number; validation: number } | null {
    if (!this.weights) return null;
    model.trainable.forEach((v, i) => v.assign(this.weights![i]!));
    tf.dispose(this.weights);
    this.weights = null;
    return this.best;
  }
}

export interface AgentRun {
  agent: CharModel;
  pretrainLog: PhaseLog;
  sftLog: PhaseLog;
}

export async function trainAgent(
  recipe: AgentRecipe,
  hooks: { onProgress?: (p: Progress) => void; afterPretrain?: (model: CharModel, log: PhaseLog) => Promise<void> } = {},
): Promise<AgentRun> {
  const rng = createRng(recipe.seed);
  const model = CharModel.create(recipe.model, rng.seed());
  const pretrainLog = await pretrain(model, recipe, rng, hooks.onProgress);
  await hooks.afterPretrain?.(model, pretrainLog);
  const sftLog = await fineTune(model, recipe, rng, hooks.onProgress);
  return { agent: model, pretrainLog, sftLog };
}
