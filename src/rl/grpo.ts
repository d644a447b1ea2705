/**
 * The GRPO trainer over whole episodes: sample 8 sums × 8 episodes, score the outcomes, give
 * each episode its group-relative advantage, push up (or down) every character the model wrote,
 * evaluate greedily on the held-out sums. One GrpoRecord per step; the caller decides what to do
 * with it (print it, post it to the page, test it). No global state: everything lives here.
 *
 * The evaluation after an update and the next step's sampling use the same weights, so they run
 * as one batch (30 greedy rows and 64 sampled ones): one rollout's fixed cost, not two. The
 * random draws are those of separate rollouts (the evaluation draws nothing), so a seed gives
 * the same run either way; a step taken without that batch (the first one when `initial()` was
 * skipped, or one past the planned last step, or every step with `shareBatch` off) samples on
 * its own. Each record says where its step's own work went (TimeSplit): a shared batch's time
 * is split between the evaluation and the sampling by rows, since every row of a lockstep batch
 * is computed at every position, finished or not.
 *
 * The training episodes are graded by `config.grader` (a bug, if the reader chose one); the
 * held-out rows always by the exact grader. Each record counts both: the mean reward (what the
 * grader paid) and the true success (what the exact grader would have paid).
 *
 * Each record also carries the push the page shows: every episode's per-character log-probs
 * before the update and after it (rl/push.ts), read without changing a number of the run.
 *
 * References: Shao et al., DeepSeekMath (GRPO), arXiv:2402.03300.
 */
import * as tf from '@tensorflow/tfjs';
import type { GrpoConfig } from '../config';
import { calculatorFor, type Calculator } from '../env/calculator';
import { rewardedByBug } from '../env/grader';
import type { Sum } from '../env/sums';
import { fitsContext, WORLDS } from '../env/world';
import { longestEpisode } from '../env/episode';
import { createRng, shuffled, type Rng } from '../lib/rng';
import { adam, setLearningRate } from '../model/adam';
import type { CharModel } from '../model/gpt';
import { UNITS, WorkMeter, type BetweenParts, type PartDone, type PartSizes } from '../model/parts';
import { groupStats } from './advantages';
import { episodeAdvantages } from './credit';
import { correctCallsPushedDown, flatGroupShares } from './figures';
import { evaluationRows, scoreEvaluation, type Evaluation } from './evaluate';
import { rolloutRows, type EpisodeRecord, type RolloutRow } from './rollout';
import { transcriptLogProbs } from '../model/logprobs';
import type { EpisodeLogp } from './push';
import { policyUpdate, updateRows, type ClipFractions } from './update';

export interface GrpoStageOptions {
  model: CharModel;
  /** Its `episode` names the world: the sums come from its split unless given here. */
  config: GrpoConfig;
  seed: number;
  trainSums?: Sum[];
  heldOutSums?: Sum[];
  /** The step's work in parts of rows (model/parts.ts: the plain-JavaScript backend's); absent: each phase whole. */
  parts?: PartSizes;
}

export interface PhaseTimings {
  /** Sampling this step's episodes on their own; 0 when the previous evaluation's batch sampled them. */
  sample: number;
  logprobs: number;
  gradient: number;
  /** The held-out evaluation after the update, with the next step's sampling when it shared the batch. */
  evaluate: number;
  /**
   * The push the page shows: log-probs before the update of the episodes it left out, reading
   * back those it computed, and one forward pass after it (rl/push.ts). Included in `total`.
   */
  push: number;
  total: number;
}

/**
 * Where a step's own work went, in milliseconds, whichever wall-clock phase it ran in: the
 * three add up, over a run, to the steps' total time.
 */
export interface TimeSplit {
  /**
   * Sampling this step's episodes: the model's characters and the calculator's calls. When
   * they were sampled in the previous evaluation's batch, that batch's time times the sampled
   * rows' share of it (64 of 94).
   */
  sampling: number;
  /**
   * The policy update: log-probabilities, loss, gradients, Adam — and the push the episode
   * viewer shows (log-probs before and after the update, `timings.push`, ~10% of a step).
   */
  update: number;
  /** This step's held-out evaluation: alone, or its rows' share (30 of 94) of a shared batch. */
  evaluation: number;
}

export interface GrpoRecord {
  /** 0 = the starting point (evaluation only); 1..steps after each update. */
  step: number;
  heldOut: number;
  heldOutCorrect: number;
  heldOutN: number;
  /** Mean reward of the episodes sampled in this step, as the grader paid it (null at step 0). */
  meanReward: number | null;
  /** Share of this step's sampled episodes whose final answer is the true sum (null at step 0). */
  trueSuccess: number | null;
  /** Sampled episodes the grader paid for though their answer is not the true sum (0 with the exact grader). */
  rewardedByBug: number;
  /**
   * The mean over the step's groups of each group's reward std, as TRL logs `reward_std` (torch's
   * std: divided by n − 1, where the advantage's is by n).
   */
  rewardStd: number | null;
  /** Fraction of groups whose 8 rewards were all equal (no gradient; rl/figures.ts): TRL's `frac_reward_zero_std`. */
  zeroSpreadGroups: number | null;
  /** Of the groups, the fraction whose 8 episodes all failed, and all were paid (rl/figures.ts). */
  allFailGroups: number | null;
  allPassGroups: number | null;
  /**
   * Of the sampled episodes whose first call was correct, the fraction given a negative
   * advantage (rl/figures.ts): correct calls the update pushed down for what came after them.
   */
  correctCallsPushedDown: number | null;
  /** Where the ratio's clip acted, over the model's characters, mean over the step's updates (rl/update.ts). */
  clip: ClipFractions | null;
  /** The policy's entropy per character it sampled, in nats (at most ln 16): TRL's `entropy`. */
  entropy: number | null;
  loss: number | null;
  modelChars: number;
  envChars: number;
  /** Characters the loss covered this step (rl/credit.ts: the model's; with masking off the calculator's too). */
  trainedChars: number;
  /** Calculator calls that lied this step (every call of every sampled episode counts). */
  lies: number;
  /** Calculator calls the model made well-formed (the calculator answered them), every call of every episode. */
  calls: number;
  /** Calls the model began (`B`) and botched: malformed or over-long, so the calculator never ran. */
  failedCalls: number;
  /** Sampled episodes whose answer is the calculator's result, lie or not (the agent copies the tool). */
  copied: number;
  /** Sampled episodes that ended without a well-formed call and answer. */
  malformed: number;
  /** Milliseconds per wall-clock phase. */
  timings: PhaseTimings;
  /** Milliseconds of this step's own sampling, update and evaluation. */
  timeSplit: TimeSplit;
  /** All sampled episodes of the step, group after group (empty at step 0). */
  episodes: ScoredEpisode[];
}

/**
 * A sampled episode with the advantage the update gave it, and the log-probability of each of
 * its characters after the first before the step's update and after it, at the sampling
 * temperature (logp.before[j] is character j + 1).
 */
type ScoredEpisode = EpisodeRecord & { advantage: number; logp: EpisodeLogp };

/** The model began a call and botched it: the calculator never ran. */
const failedCall = (e: Pick<EpisodeRecord, 'reason'>): boolean =>
  e.reason === 'malformed call' || e.reason === 'over-long call';

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / Math.max(xs.length, 1);

/**
 * The answer is the calculator's result, whether or not the result was true.
 * @internal A test seam: exported for the grader and switches tests.
 */
export const copiesTool = (e: Pick<EpisodeRecord, 'result' | 'answer' | 'reason'>): boolean =>
  e.reason === 'answered' && e.result !== null && Number(e.answer) === e.result.value;

const now = (): number => performance.now();

/**
 * The learning rate of step `step` (1-based): 0 over the hold, then rising linearly to `lr` over
 * the warm-up, then `lr` (config.ts: measurement knobs for the first dip, both 0 on the page).
 * @internal A test seam: exported for its test.
 */
export function scheduledLr(c: Pick<GrpoConfig, 'lr' | 'lrWarmupSteps' | 'lrHoldSteps'>, step: number): number {
  const t = step - c.lrHoldSteps;
  if (t <= 0) return 0;
  return c.lrWarmupSteps > 0 ? c.lr * Math.min(1, t / c.lrWarmupSteps) : c.lr;
}

export class GrpoStage {
  readonly config: GrpoConfig;
  private readonly model: CharModel;
  private readonly rng: Rng;
  private readonly calculator: Calculator;
  private readonly optimizer: tf.Optimizer;
  private readonly trainSums: Sum[];
  private readonly heldOutSums: Sum[];
  private stepIndex = 0;
  /** Episodes for the next step, sampled in the last evaluation's batch, and their share of its time. */
  private ahead: { episodes: EpisodeRecord[]; ms: number } | null = null;
  private evaluation: Evaluation | null = null;
  private readonly parts: PartSizes | undefined;
  /** Positions a rollout's rows run to, from the last rollout (the world's longest episode before one): the progress's estimate. */
  private positions: number;

  constructor(opts: GrpoStageOptions) {
    this.config = opts.config;
    this.model = opts.model;
    this.rng = createRng(opts.seed);
    // The calculator draws from its own stream, so switching it on does not reshuffle the sums.
    this.calculator = calculatorFor(opts.config.calculator, createRng(opts.seed ^ 0x5eed), opts.config.faultyRate);
    this.optimizer = adam(opts.config.lr);
    const world = WORLDS[opts.config.episode];
    if (!fitsContext(world.episode, opts.model.config.context))
      throw new Error(
        `GrpoStage: the ${world.episode} world needs a model context of ${longestEpisode(world.calls)}, this model's is ${opts.model.config.context} (an agent of another world?)`,
      );
    this.parts = opts.parts;
    this.positions = longestEpisode(world.calls);
    this.trainSums = opts.trainSums ?? world.split.train;
    this.heldOutSums = opts.heldOutSums ?? world.split.heldOut;
    if (this.trainSums.length < opts.config.sumsPerStep)
      throw new Error(
        `GrpoStage: ${this.trainSums.length} training sums cannot fill ${opts.config.sumsPerStep} groups`,
      );
  }

  get step(): number {
    return this.stepIndex;
  }

  /** The held-out evaluation behind the latest record, episodes included. */
  get lastEvaluation(): Evaluation | null {
    return this.evaluation;
  }

  /** The last step of `config.steps` is done. */
  get finished(): boolean {
    return this.stepIndex >= this.config.steps;
  }

  /** Step 0: the held-out success of the starting policy. `between`: called between its parts (model/parts.ts). */
  async initial(between?: BetweenParts): Promise<GrpoRecord> {
    const t0 = now();
    const meter = new WorkMeter(this.evaluationUnits(0), this.stepUnits(), between);
    const { ev, ms: evaluation } = await this.evaluate(0, meter.phase('evaluation'));
    const ms = now() - t0;
    return {
      step: 0,
      heldOut: ev.success,
      heldOutCorrect: ev.correct,
      heldOutN: ev.n,
      meanReward: null,
      trueSuccess: null,
      rewardedByBug: 0,
      rewardStd: null,
      zeroSpreadGroups: null,
      allFailGroups: null,
      allPassGroups: null,
      correctCallsPushedDown: null,
      clip: null,
      entropy: null,
      loss: null,
      modelChars: 0,
      envChars: 0,
      trainedChars: 0,
      lies: 0,
      calls: 0,
      failedCalls: 0,
      copied: 0,
      malformed: 0,
      timings: { sample: 0, logprobs: 0, gradient: 0, evaluate: ms, push: 0, total: ms },
      timeSplit: { sampling: 0, update: 0, evaluation },
      episodes: [],
    };
  }

  /**
   * One GRPO step: sample (unless sampled ahead), score, update, evaluate. `between`: called
   * between its parts (model/parts.ts); a rejection abandons the step before its update or
   * after it, with every tensor freed.
   */
  async next(between?: BetweenParts): Promise<GrpoRecord> {
    const c = this.config;
    const step = this.stepIndex + 1;
    const t0 = now();
    const ahead = this.ahead;
    this.ahead = null;
    const meter = this.meterFor(step, ahead === null, between);
    const episodes = ahead?.episodes ?? (await this.sample(meter.phase('sampling')));
    const t1 = now();
    this.sampled(meter, step, episodes, ahead === null);

    const rewards = episodes.map((e) => e.reward);
    const advantages = episodeAdvantages(rewards, c);
    const part = { rowsPerPart: this.parts?.forwardRows, onPart: meter.phase('update') };
    // The push: log-probs before the update (the update reads those of the episodes it runs),
    // and after it, one forward pass over the step's distinct transcripts.
    const skipped = await this.logpOfSkipped(episodes, advantages, part);
    const t2 = now();
    const { update, before, timings } = await policyUpdate({
      model: this.model,
      optimizer: this.optimizerAt(step),
      episodes,
      advantages,
      config: c,
      step,
      rowsPerPart: this.parts?.updateRows,
      onPart: part.onPart,
    });
    const t3 = now();
    const after = await transcriptLogProbs(
      this.model,
      episodes.map((e) => e.text),
      c.temperature,
      part,
    );
    const te = now();
    const pushMs = t2 - t1 + timings.before + (te - t3);

    const { ev, ms: evaluation } = await this.evaluate(step, meter.phase('evaluation'));
    const t4 = now();
    this.stepIndex = step;
    const logp = (i: number): EpisodeLogp => ({ before: before[i] ?? skipped.get(i)!, after: after[i]! });

    return {
      step,
      heldOut: ev.success,
      heldOutCorrect: ev.correct,
      heldOutN: ev.n,
      ...sampledFigures(episodes, c),
      correctCallsPushedDown: correctCallsPushedDown(episodes, advantages),
      clip: update.clip,
      loss: update.loss,
      trainedChars: update.trainedChars,
      timings: {
        sample: t1 - t0,
        logprobs: timings.logprobs,
        gradient: timings.gradient,
        evaluate: t4 - te,
        push: pushMs,
        total: t4 - t0,
      },
      timeSplit: { sampling: ahead?.ms ?? t1 - t0, update: te - t1, evaluation },
      episodes: episodes.map((e, i) => ({ ...e, advantage: advantages[i]!, logp: logp(i) })),
    };
  }

  /**
   * The optimiser, at `step`'s learning rate under a warm-up or a hold; off on the page (both 0)
   * it is left with the rate it was made with, bit for bit.
   */
  private optimizerAt(step: number): tf.Optimizer {
    const c = this.config;
    if (c.lrWarmupSteps > 0 || c.lrHoldSteps > 0) setLearningRate(this.optimizer, scheduledLr(c, step));
    return this.optimizer;
  }

  /**
   * Log-probs before the update of the episodes the update leaves out (advantage 0): it reads
   * the others' itself. Keyed by episode index.
   */
  private async logpOfSkipped(
    episodes: readonly EpisodeRecord[],
    advantages: readonly number[],
    parts: { rowsPerPart?: number; onPart: PartDone },
  ): Promise<Map<number, Float32Array>> {
    const ran = new Set(updateRows(advantages));
    const skipped = episodes.flatMap((_, i) => (ran.has(i) ? [] : [i]));
    const logp = await transcriptLogProbs(
      this.model,
      skipped.map((i) => episodes[i]!.text),
      this.config.temperature,
      parts,
    );
    return new Map(skipped.map((i, k) => [i, logp[k]!]));
  }

  /** Rows for one step's sampling: this step's sums, each `episodesPerSum` times, groups contiguous. */
  private sampleRows(): RolloutRow[] {
    const c = this.config;
    const sums = shuffled(this.trainSums, this.rng).slice(0, c.sumsPerStep);
    return sums.flatMap((sum) =>
      Array.from({ length: c.episodesPerSum }, () => ({
        sum,
        calculator: this.calculator,
        grader: c.grader,
        greedy: false,
      })),
    );
  }

  /**
   * The held-out evaluation after `step`, and the next step's sampling in the same batch if one
   * is planned (and batches are shared); ms: the evaluation's share of the batch's time.
   */
  private async evaluate(step: number, onPart: PartDone): Promise<{ ev: Evaluation; ms: number }> {
    const held = evaluationRows(this.heldOutSums);
    const ahead = this.sharesBatch(step) ? this.sampleRows() : [];
    const t0 = now();
    const episodes = await rolloutRows(this.model, [...held, ...ahead], {
      temperature: this.config.temperature,
      rng: this.rng,
      toolLatencyMs: this.config.toolLatencyMs,
      rowsPerPart: this.parts?.rolloutRows,
      onPart,
    });
    const ms = now() - t0;
    this.positions = positionsOf(episodes);
    const share = held.length / (held.length + ahead.length);
    if (ahead.length > 0) this.ahead = { episodes: episodes.slice(held.length), ms: ms * (1 - share) };
    this.evaluation = scoreEvaluation(episodes.slice(0, held.length));
    return { ev: this.evaluation, ms: ms * share };
  }

  /** This step's sampling on its own (not in the last evaluation's batch). */
  private sample(onPart: PartDone): Promise<EpisodeRecord[]> {
    const c = this.config;
    return rolloutRows(this.model, this.sampleRows(), {
      temperature: c.temperature,
      rng: this.rng,
      toolLatencyMs: c.toolLatencyMs,
      rowsPerPart: this.parts?.rolloutRows,
      onPart,
    });
  }

  /** A step's meter (model/parts.ts): its units, its own sampling's included where it samples. */
  private meterFor(step: number, samples: boolean, between: BetweenParts | undefined): WorkMeter {
    const rows = this.config.sumsPerStep * this.config.episodesPerSum;
    const units = (samples ? rows * this.positions : 0) + this.updateUnits(rows, this.positions);
    return new WorkMeter(units + this.evaluationUnits(step), this.stepUnits(), between);
  }

  /** The step's episodes are in: its rollouts' length and its update's units, known now. */
  private sampled(meter: WorkMeter, step: number, episodes: readonly EpisodeRecord[], now: boolean): void {
    if (now) this.positions = positionsOf(episodes);
    const length = Math.max(...episodes.map((e) => e.text.length)) - 1;
    const rest = this.updateUnits(episodes.length, length) + this.evaluationUnits(step);
    meter.expect(meter.units + rest, this.stepUnits());
  }

  private sharesBatch(step: number): boolean {
    return step < this.config.steps && this.config.shareBatch;
  }

  /** Units of the evaluation after `step` (model/parts.ts), with the next step's sampling where it shares the batch. */
  private evaluationUnits(step: number): number {
    const c = this.config;
    return (this.heldOutSums.length + (this.sharesBatch(step) ? c.sumsPerStep * c.episodesPerSum : 0)) * this.positions;
  }

  /**
   * Units of the update of `rows` episodes of `length` characters: forward and backward per
   * update, the frozen log-probs when there are several, and the push's two forward passes.
   */
  private updateUnits(rows: number, length: number): number {
    const mu = this.config.updatesPerBatch;
    return rows * length * (UNITS.train * mu + UNITS.forward * ((mu > 1 ? 1 : 0) + 2));
  }

  /** Units of a usual step: sampling, the update, the evaluation. */
  private stepUnits(): number {
    const c = this.config;
    const rows = c.sumsPerStep * c.episodesPerSum;
    return (rows + this.heldOutSums.length) * this.positions + this.updateUnits(rows, this.positions);
  }

  dispose(): void {
    this.optimizer.dispose();
  }
}

/** The positions a rollout ran to: its longest transcript's. */
const positionsOf = (episodes: readonly EpisodeRecord[]): number => Math.max(...episodes.map((e) => e.text.length));

/** What a step's sampled episodes did: their rewards, their groups' spread, who wrote what, the calculator's lies. */
function sampledFigures(episodes: readonly EpisodeRecord[], c: Pick<GrpoConfig, 'episodesPerSum' | 'sumsPerStep'>) {
  const rewards = episodes.map((e) => e.reward);
  const groups = Array.from({ length: c.sumsPerStep }, (_, g) =>
    rewards.slice(g * c.episodesPerSum, (g + 1) * c.episodesPerSum),
  );
  const n = c.episodesPerSum;
  const count = (who: string) => episodes.reduce((k, e) => k + e.authors.filter((a) => a === who).length, 0);
  const modelChars = count('model');
  return {
    meanReward: groupStats(rewards).mean,
    rewardStd: mean(groups.map((g) => groupStats(g).std * Math.sqrt(n / Math.max(n - 1, 1)))),
    ...flatGroupShares(rewards, c.episodesPerSum),
    entropy: episodes.reduce((h, e) => h + e.modelEntropy, 0) / Math.max(modelChars, 1),
    trueSuccess: episodes.filter((e) => e.correct).length / episodes.length,
    rewardedByBug: episodes.filter(rewardedByBug).length,
    modelChars,
    envChars: count('env'),
    lies: episodes.reduce((k, e) => k + e.results.filter((r) => r.lied).length, 0),
    calls: episodes.reduce((k, e) => k + e.results.length, 0),
    failedCalls: episodes.filter(failedCall).length,
    copied: episodes.filter(copiesTool).length,
    malformed: episodes.filter((e) => e.reason !== 'answered').length,
  };
}
