/**
 * The agent recipe's two supervised stages as step-by-step trainers: pre-training on
 * single-digit worksheets, then fine-tuning on exactly 30 demonstrations of the calculator call.
 * `initial()` measures the starting point (step 0), each `next()` is one optimiser step. The
 * page's worker, `npm run train:agent` and the Node workshop all drive this one class, so
 * there is no second training loop anywhere.
 *
 * Each stage draws from its own random stream, derived from the run's seed and the stage's
 * name: fine-tuning the shipped worksheet model at the shipped seed gives the shipped agent,
 * whether or not the pre-training ran in the same process.
 */
import * as tf from '@tensorflow/tfjs';
import type { AgentRecipe, WorksheetFormat } from '../config';
import { demonstrationFor, EPISODES, longestEpisode } from '../env/episode';
import type { Sum } from '../env/sums';
import { AGENTS, WORLDS, type World } from '../env/world';
import { singleDigitSums, worksheetLine, worksheetRow } from '../env/worksheets';
import { createRng, type Rng } from '../lib/rng';
import { adam } from '../model/adam';
import { roundToStored } from '../model/checkpoint';
import type { CharModel } from '../model/gpt';
import { partsOf, UNITS, WorkMeter, type BetweenParts, type PartDone, type PartSizes } from '../model/parts';
import { shiftTokens } from '../model/logprobs';
import { disposeBatch, makeTokenBatch, makeTokenBatches, supervisedStep, type TokenBatch } from '../model/supervised';
import { PAD, START } from '../model/vocab';
import { evaluateGreedy } from '../rl/evaluate';

export type SupervisedStageName = 'pretrain' | 'sft';

/**
 * Salts that give each stage its own stream from one seed (and the initial weights another, and
 * the position rows the three-call agent adds to the worksheet model another).
 */
const SALT = { init: 0, pretrain: 0x70726574, sft: 0x73667421, widen: 0x77696465 } as const;

export const stageRng = (seed: number, stage: keyof typeof SALT): Rng => createRng((seed ^ SALT[stage]) >>> 0);

export interface Score {
  success: number;
  correct: number;
  n: number;
}

export interface SupervisedRecord {
  stage: SupervisedStageName;
  /** 0 = the starting point (measurement only); 1..steps after each optimiser step. */
  step: number;
  steps: number;
  /** Loss on this step's batch before the update; null at step 0. */
  loss: number | null;
  /** Fine-tuning: greedy held-out success in its world, every `evalEvery` steps and at both ends; else null. */
  heldOut: Score | null;
  /** Pre-training: teacher-forced exact answers on the 100 single-digit sums, same cadence. */
  worksheet: Score | null;
  /** Milliseconds the step took, measurement included. */
  ms: number;
}

export interface PhaseLog {
  steps: number;
  /** Early stopping: the step whose weights were kept, and its validation success. */
  selected?: { step: number; validation: number };
  firstLoss: number;
  lastLoss: number;
  seconds: number;
}

export interface StageOptions {
  /** Fine-tuning the three-call agent: already widened to its context (agent/train.ts's fineTuningStart). */
  model: CharModel;
  /** Its `episode` names the agent: the world fine-tuning scores held-out success in, the longest it demonstrates. */
  recipe: AgentRecipe;
  stage: SupervisedStageName;
  seed: number;
  /** Measure every this many steps (and at step 0 and the last); 0 = only at the ends. */
  evalEvery: number;
  /** A step's work in parts of rows (model/parts.ts: the plain-JavaScript backend's); absent: whole. */
  parts?: PartSizes;
}

const now = (): number => performance.now();

export class SupervisedStage {
  readonly stage: SupervisedStageName;
  readonly steps: number;
  private readonly model: CharModel;
  private readonly recipe: AgentRecipe;
  private readonly rng: Rng;
  private readonly optimizer: tf.Optimizer;
  private readonly evalEvery: number;
  private readonly world: World;
  private readonly best: BestOnValidation;
  private stepIndex = 0;
  private disposed = false;
  private firstLoss = NaN;
  private lastLoss = NaN;
  private ms = 0;
  private readonly parts: PartSizes | undefined;

  constructor(opts: StageOptions) {
    this.stage = opts.stage;
    this.model = opts.model;
    this.recipe = opts.recipe;
    this.evalEvery = opts.evalEvery;
    this.parts = opts.parts;
    const agent = AGENTS[opts.recipe.episode ?? 'one-call'];
    this.world = WORLDS[agent.name];
    if (opts.stage === 'sft' && opts.model.config.context < agent.context)
      throw new Error(
        `SupervisedStage: fine-tuning the ${agent.name} agent needs a context of ${agent.context}, the model's is ${opts.model.config.context}`,
      );
    this.best = new BestOnValidation(worldsOf(opts.recipe).flatMap((w) => w.split.validation));
    this.rng = stageRng(opts.seed, opts.stage);
    const r = opts.recipe;
    this.steps = opts.stage === 'pretrain' ? r.pretrain.steps : r.sft.steps;
    this.optimizer = adam(opts.stage === 'pretrain' ? r.pretrain.lr : r.sft.lr);
  }

  get step(): number {
    return this.stepIndex;
  }

  get finished(): boolean {
    return this.stepIndex >= this.steps;
  }

  /** Step 0: the starting point's score. `between`: called between its parts (model/parts.ts). */
  async initial(between?: BetweenParts): Promise<SupervisedRecord> {
    const t0 = now();
    const meter = new WorkMeter(this.measureUnits(), this.stepUnits(), between);
    const scores = await this.measure(meter.phase('evaluation'));
    return { stage: this.stage, step: 0, steps: this.steps, loss: null, ...scores, ms: now() - t0 };
  }

  /** One optimiser step on a fresh batch. `between`: called between its parts; the weights change after the last. */
  async next(between?: BetweenParts): Promise<SupervisedRecord> {
    if (this.finished) throw new Error(`SupervisedStage: ${this.stage} has no step after ${this.steps}`);
    const t0 = now();
    const step = ++this.stepIndex;
    const due = step === this.steps || (this.evalEvery > 0 && step % this.evalEvery === 0);
    const meter = new WorkMeter(this.stepUnits() + (due ? this.measureUnits() : 0), this.stepUnits(), between);
    const batch = this.stage === 'pretrain' ? this.pretrainBatch() : this.sftBatch();
    const { lr } = this.stage === 'pretrain' ? this.recipe.pretrain : this.recipe.sft;
    const weightDecay = this.stage === 'pretrain' ? 0 : this.recipe.sft.weightDecay;
    let loss: number;
    try {
      loss = await supervisedStep(this.model, this.optimizer, batch, {
        dropoutSeed: this.rng.seed(),
        lr,
        weightDecay,
        step,
        stage: this.stage === 'sft' ? 'fine-tuning' : 'pre-training',
        eachBatchAPart: this.parts !== undefined,
        onPart: meter.phase('update'),
      });
    } finally {
      disposeBatch(batch);
    }
    if (step === 1) this.firstLoss = loss;
    this.lastLoss = loss;
    // The stage ends with its weights as a checkpoint holds them (float16), measured so: the next
    // stage starts from these bits whether it is handed them in memory or through a file.
    if (step === this.steps) await roundToStored(this.model);
    const every = this.recipe.sft.selectEvery;
    if (this.stage === 'sft' && every > 0 && (step % every === 0 || step === this.steps))
      await this.best.consider(this.model, step);
    const scores = due ? await this.measure(meter.phase('evaluation')) : { heldOut: null, worksheet: null };
    const ms = now() - t0;
    this.ms += ms;
    return { stage: this.stage, step, steps: this.steps, loss, ...scores, ms };
  }

  /**
   * Ends the stage: with early stopping, puts the best weights on the validation sums back
   * (rounded as a checkpoint holds them). Returns the stage's log; the optimiser is released.
   */
  async finish(): Promise<PhaseLog> {
    const selected = this.best.restoreInto(this.model);
    this.dispose();
    if (selected) await roundToStored(this.model);
    return {
      steps: this.stepIndex,
      firstLoss: this.firstLoss,
      lastLoss: this.lastLoss,
      seconds: this.ms / 1000,
      ...(selected && { selected }),
    };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.optimizer.dispose();
    this.best.dispose();
  }

  private async measure(onPart: PartDone): Promise<Pick<SupervisedRecord, 'heldOut' | 'worksheet'>> {
    if (this.stage === 'sft') {
      const parts = { rowsPerPart: this.parts?.rolloutRows, onPart };
      const { success, correct, n } = await evaluateGreedy(this.model, this.world.split.heldOut, parts);
      return { heldOut: { success, correct, n }, worksheet: null };
    }
    const parts = { rowsPerPart: this.parts?.forwardRows, onPart };
    return { heldOut: null, worksheet: await worksheetAccuracy(this.model, this.recipe.pretrain.format, parts) };
  }

  /** Units of a step's update (model/parts.ts): its rows at the full context, forward and backward. */
  private stepUnits(): number {
    const rows =
      this.stage === 'pretrain'
        ? this.recipe.pretrain.batch
        : demonstrationsOf(this.recipe).length + this.recipe.sft.worksheetRows;
    return rows * this.model.config.context * UNITS.train;
  }

  /** Units of a measurement: the held-out rollout, or the 100 worksheet lines' forward pass. */
  private measureUnits(): number {
    if (this.stage === 'pretrain') return 100 * WORKSHEET_LINE * UNITS.forward;
    return this.world.split.heldOut.length * longestEpisode(this.world.calls);
  }

  /** Worksheet rows of the full context; every character after `^` is a target. */
  private worksheetRows(n: number): { rows: string[]; weight: (row: number, j: number) => number } {
    const rows = Array.from({ length: n }, () =>
      worksheetRow(this.rng, this.recipe.model.context, this.recipe.pretrain.format),
    );
    return { rows, weight: (row, j) => (rows[row]![j + 1] !== PAD ? 1 : 0) };
  }

  private pretrainBatch(): TokenBatch[] {
    const { rows, weight } = this.worksheetRows(this.recipe.pretrain.batch);
    return makeTokenBatches(rows, weight, this.parts?.updateRows);
  }

  /** The demonstrations (loss on the model's characters only) and a few worksheet rows. */
  private sftBatch(): TokenBatch[] {
    const demos = demonstrationsOf(this.recipe);
    const sheets = this.worksheetRows(this.recipe.sft.worksheetRows);
    const rows = [...demos.map((d) => d.text), ...sheets.rows];
    const weight = (row: number, j: number) =>
      row < demos.length ? (demos[row]!.authors[j + 1] === 'model' ? 1 : 0) : sheets.weight(row - demos.length, j);
    return makeTokenBatches(rows, weight, this.parts?.updateRows);
  }
}

/**
 * The worlds a recipe's agent is fine-tuned on, fewest calls first: its own (the longest), and —
 * where the recipe mixes them in — every shorter one.
 */
export function worldsOf(recipe: AgentRecipe): World[] {
  const own = WORLDS[recipe.episode ?? 'one-call'];
  if (!recipe.sft.shorterDemonstrations) return [own];
  return EPISODES.map((e) => WORLDS[e]).filter((w) => w.calls <= own.calls);
}

/**
 * What fine-tuning for the recipe's agent shows the model: each of its worlds' demonstrations,
 * fewest calls first — its own world's `demonstrations`, a shorter one's `shorterDemonstrations`.
 */
export function demonstrationsOf(recipe: AgentRecipe): ReturnType<typeof demonstrationFor>[] {
  const { demonstrations, shorterDemonstrations = 0 } = recipe.sft;
  const own = recipe.episode ?? 'one-call';
  return worldsOf(recipe)
    .flatMap((w) => w.split.demonstrations.slice(0, w.episode === own ? demonstrations : shorterDemonstrations))
    .map(demonstrationFor);
}

/**
 * How well the model adds single digits: each of the 100 sums as a worksheet's first line
 * (`^3+4=7|`), scored correct when every answer character (digits and `|`) is the model's
 * most likely next character. One teacher-forced forward pass, no sampling.
 */
export async function worksheetAccuracy(
  model: CharModel,
  format: WorksheetFormat,
  parts: { rowsPerPart?: number; onPart?: PartDone } = {},
): Promise<Score> {
  const sums = singleDigitSums();
  const rows = sums.map(({ a, b }) => START + worksheetLine(a, b, format));
  // The answer starts after the last `=`: `^3+4=7|`, or `^3+4=3+4|7|` when restating.
  const answerFrom = rows.map((row) => (format === 'plain' ? row.indexOf('=') + 1 : row.indexOf('|') + 1));
  let correct = 0;
  for (const part of partsOf(rows.length, parts.rowsPerPart)) {
    const these = part.map((i) => rows[i]!);
    const batch = makeTokenBatch(these, () => 1);
    let hits: tf.Tensor | undefined;
    try {
      hits = tf.tidy(() => {
        const { inputs, targets } = shiftTokens(batch.tokens); // [N, L-1] each
        const guess = model.logits(inputs).argMax(-1); // [N, L-1]
        return tf.cast(tf.equal(guess, targets), 'int32'); // [N, L-1]
      });
      const L1 = hits.shape[1]!;
      const h = await hits.data();
      these.forEach((row, k) => {
        let ok = true;
        for (let j = answerFrom[part[k]!]! - 1; j < row.length - 1; j++) ok &&= h[k * L1 + j] === 1;
        if (ok) correct++;
      });
    } finally {
      tf.dispose(hits ?? []);
      disposeBatch(batch);
    }
    await parts.onPart?.(these.length * WORKSHEET_LINE * UNITS.forward);
  }
  return { success: correct / rows.length, correct, n: rows.length };
}

/** A worksheet line's characters, about (`^3+4=7|`): the measurement's units. */
const WORKSHEET_LINE = 7;

/** Keeps a copy of the weights with the best greedy success on the validation sums. */
class BestOnValidation {
  private weights: tf.Tensor[] | null = null;
  private best = { step: 0, validation: -1 };

  constructor(private readonly validation: readonly Sum[]) {}

  async consider(model: CharModel, step: number): Promise<void> {
    const { success } = await evaluateGreedy(model, [...this.validation]);
    if (success < this.best.validation) return;
    tf.dispose(this.weights ?? []);
    this.weights = model.trainable.map((v) => tf.clone(v));
    this.best = { step, validation: success };
  }

  /** Puts the kept weights back; returns which step they came from (null if none kept). */
  restoreInto(model: CharModel): { step: number; validation: number } | null {
    if (!this.weights) return null;
    model.trainable.forEach((v, i) => v.assign(this.weights![i]!));
    this.dispose();
    return this.best;
  }

  dispose(): void {
    tf.dispose(this.weights ?? []);
    this.weights = null;
  }
}
