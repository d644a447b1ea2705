/**
 * One run's tensors and stage runners: its stages in order (pre-training, fine-tuning, GRPO — or
 * the tail of that list), one step at a time. The page's worker and the Node workshop both
 * drive this class. Every stage starts from weights held in plain memory (a snapshot), never
 * from tensors of the stage before, so a stage can be replayed on another backend after a lost
 * GPU, and a GRPO restart can reuse the run's own agent.
 */
import * as tf from '@tensorflow/tfjs';
import { CPU_PARTS, type AgentRecipe, type GrpoConfig } from '../config';
import { SupervisedStage, type SupervisedRecord, type SupervisedStageName } from '../agent/stage';
import { fineTuningStart, initialModel } from '../agent/train';
import { decodeCheckpoint, encodeCheckpoint, weightsDigest, type CheckpointFiles } from '../model/checkpoint';
import type { CharModel } from '../model/gpt';
import type { BetweenParts, WorkProgress } from '../model/parts';
import { summarise, type RunSummary } from '../rl/summary';
import { GrpoStage, type GrpoRecord } from '../rl/grpo';
import { agentOf } from '../env/world';
import { grpoConfigOf, type RunConfig } from './settings';
import type { Stage } from './stages';

export interface Sources {
  /** Fine-tuning's recipe, for the agent that plays the run (its `episode` names it). */
  recipe: AgentRecipe;
  grpo: GrpoConfig;
  /** Measure held-out (fine-tuning) or worksheet (pre-training) success every this many steps. */
  evalEvery: number;
  agent: CheckpointFiles;
  pretrained(): Promise<CheckpointFiles>;
}

export interface PipelineSummary {
  grpo: RunSummary;
  /** Greedy held-out success of the run's fine-tuned agent (null when it starts from the shipped one). */
  sftHeldOut: number | null;
  /** weightsDigest of the agent this run fine-tuned (null when it fine-tuned none). */
  agentDigest: string | null;
  /** Seconds of computing per stage. */
  seconds: Partial<Record<Stage, number>>;
}

/** A step of any stage: GRPO's GrpoRecord or a supervised stage's record. */
export type StageRecord =
  { stage: 'grpo'; record: GrpoRecord } | { stage: SupervisedStageName; record: SupervisedRecord };

type StageRunner = SupervisedStage | GrpoStage;

/** How far a record has got (model/parts.ts): which record (`step` of `stage`), and ms since it began. */
export type RecordProgress = WorkProgress & { stage: Stage; step: number; ms: number };

/** Called between a record's parts, as BetweenParts is. */
export type BetweenRecordParts = (p: RecordProgress) => Promise<void> | undefined;

export class PipelineRun {
  private stageIndex = -1;
  /** The step of the last record returned in the current stage; -1 before its first. */
  private lastStep = -1;
  /** Bumped by a replay: a step begun before it must not touch the run afterwards. */
  private epoch = 0;
  private model: CharModel | null = null;
  private runner: StageRunner | null = null;
  /** The settings the current stage was built with. */
  private builtWith: RunConfig | null = null;
  /** The weights the current stage started from (null: fresh weights from the seed). */
  private stageStart: CheckpointFiles | null = null;
  /** The fine-tuned agent GRPO starts from. */
  private agentWeights: CheckpointFiles | null;
  private readonly grpoCurve: Pick<GrpoRecord, 'step' | 'heldOut' | 'meanReward' | 'timings'>[] = [];
  private sftHeldOut: number | null = null;
  private readonly seconds: Partial<Record<Stage, number>> = {};

  constructor(
    readonly id: number,
    private config: RunConfig,
    readonly stages: readonly Stage[],
    private readonly sources: Sources,
    /** A run that restarts GRPO from another run's agent gets it here. */
    agent: CheckpointFiles | null,
  ) {
    this.agentWeights = agent;
    const fineTunes = sources.recipe.episode ?? 'one-call';
    if (fineTunes !== agentOf(config))
      throw new Error(
        `PipelineRun: the agent recipe fine-tunes the ${fineTunes} agent, but the run's agent is the ${agentOf(config)} agent`,
      );
  }

  get stage(): Stage {
    return this.stages[Math.max(this.stageIndex, 0)]!;
  }

  /** The step of the last record returned in the current stage (-1 before its first). */
  get lastStepOfStage(): number {
    return this.lastStep;
  }

  /** The agent this run's GRPO starts (or would start) from, once it exists. */
  get agent(): CheckpointFiles | null {
    return this.agentWeights ?? (this.stages[0] === 'grpo' ? this.sources.agent : null);
  }

  /**
   * The current stage's model and its last record (its weights are those after that record), or
   * null before the run's first record. For reading only, between steps (a reader's ask).
   */
  get policy(): { model: CharModel; stage: Stage; step: number } | null {
    return this.model && this.lastStep >= 0 ? { model: this.model, stage: this.stage, step: this.lastStep } : null;
  }

  /**
   * New settings for the stages not built yet. Only before GRPO: a built stage keeps the
   * settings it was built with (the worker's command table restarts GRPO instead).
   */
  reconfigure(config: RunConfig): void {
    if (this.runner instanceof GrpoStage)
      throw new Error('PipelineRun.reconfigure: GRPO has begun; restart it from the agent instead');
    this.config = config;
  }

  /** The step in flight (if any) is abandoned: it will neither record itself nor touch the run. */
  abandonStep(): void {
    this.epoch++;
  }

  /**
   * The next record: a stage's starting point, or one step of it, with the settings its stage was
   * built with. `between`: called between the record's parts (model/parts.ts).
   */
  async step(between?: BetweenRecordParts): Promise<StageRecord & { complete: boolean; config: RunConfig }> {
    const epoch = this.epoch;
    const t0 = performance.now();
    if (this.stageIndex < 0 || (this.lastStep >= 0 && this.stageFinished())) {
      const next = await this.nextStageStart();
      this.current(epoch);
      this.dropTensors();
      this.stageIndex++;
      this.lastStep = -1;
      this.stageStart = next;
      if (this.stage === 'grpo') this.agentWeights = next;
      this.buildStage();
    }
    const parts = this.parts(between, this.lastStep + 1, t0);
    const record = this.lastStep < 0 ? await this.runner!.initial(parts) : await this.runner!.next(parts);
    this.current(epoch);
    this.lastStep = record.step;
    return this.recorded(record);
  }

  /**
   * Rebuilds the current stage on the backend now in use and replays its steps there, up to
   * the last one this run returned. Returns false if `stop` asked it to give up first.
   * A step still in flight on the old backend is abandoned: it can no longer change this run.
   */
  async replay(stop: () => boolean, between?: BetweenRecordParts): Promise<boolean> {
    this.epoch++;
    this.dropTensors();
    if (this.stageIndex < 0) return true;
    this.buildStage();
    for (let s = 1; s <= this.lastStep; s++) {
      if (stop()) return false;
      await this.runner!.next(this.parts(between, s, performance.now()));
    }
    return true;
  }

  /** `between` for the record of `step` in the current stage, begun at t0. */
  private parts(between: BetweenRecordParts | undefined, step: number, t0: number): BetweenParts | undefined {
    const stage = this.stage;
    return between && ((p) => between({ ...p, stage, step, ms: performance.now() - t0 }));
  }

  summary(): PipelineSummary {
    const seconds = this.grpoCurve.reduce((t, r) => t + r.timings.total, 0) / 1000;
    const agentDigest =
      this.stages.includes('sft') && this.agentWeights ? weightsDigest(this.agentWeights.weights) : null;
    return {
      grpo: summarise(this.grpoCurve, seconds),
      sftHeldOut: this.sftHeldOut,
      agentDigest,
      seconds: { ...this.seconds },
    };
  }

  dispose(): void {
    this.dropTensors();
  }

  private stageFinished(): boolean {
    return this.runner!.finished;
  }

  private recorded(record: GrpoRecord | SupervisedRecord): StageRecord & { complete: boolean; config: RunConfig } {
    const stage = this.stage;
    const config = this.builtWith!;
    const ms = 'timings' in record ? record.timings.total : record.ms;
    this.seconds[stage] = (this.seconds[stage] ?? 0) + ms / 1000;
    const last = this.stageIndex === this.stages.length - 1;
    if (stage === 'grpo') {
      const r = record as GrpoRecord;
      this.grpoCurve.push({ step: r.step, heldOut: r.heldOut, meanReward: r.meanReward, timings: r.timings });
      return { stage, record: r, complete: last && this.stageFinished(), config };
    }
    const r = record as SupervisedRecord;
    if (stage === 'sft' && r.heldOut) this.sftHeldOut = r.heldOut.success;
    return { stage, record: r, complete: last && this.stageFinished(), config };
  }

  /**
   * The weights the next stage starts from: fresh from the seed (pre-training), the shipped
   * worksheet model or the end of pre-training (fine-tuning), the run's agent (GRPO).
   */
  private async nextStageStart(): Promise<CheckpointFiles | null> {
    const next = this.stages[this.stageIndex + 1]!;
    if (next === 'pretrain') return null;
    if (this.stageIndex < 0) return next === 'sft' ? this.sources.pretrained() : this.agent!;
    // Leaving a supervised stage: early stopping (if on) restores its best weights first.
    await (this.runner as SupervisedStage).finish();
    const { manifest, weights } = await encodeCheckpoint(this.model!, {
      kind: next === 'sft' ? 'pretrained' : 'agent',
      seed: this.config.seed,
    });
    return { manifest, weights, where: '' };
  }

  /** The current stage's model and runner, from its starting weights. */
  private buildStage(): void {
    const { recipe, grpo, evalEvery } = this.sources;
    const stage = this.stage;
    const seed = this.config.seed;
    const start = this.stageStart;
    const model = start ? decodeCheckpoint(start.manifest, start.weights, start.where) : initialModel(recipe, seed);
    this.model = stage === 'sft' ? fineTuningStart(model, recipe, seed) : model;
    // The one place a stage takes the run's settings: its records say so (builtWith).
    this.builtWith = this.config;
    // Built on the backend in use (again after a switch): only plain JavaScript cuts a step into parts.
    const parts = tf.getBackend() === 'cpu' ? CPU_PARTS : undefined;
    this.runner =
      stage === 'grpo'
        ? new GrpoStage({ model: this.model, config: grpoConfigOf(grpo, this.config), seed, parts })
        : new SupervisedStage({ model: this.model, recipe, stage, seed, evalEvery, parts });
  }

  private current(epoch: number): void {
    if (epoch !== this.epoch) throw new Abandoned();
  }

  private dropTensors(): void {
    const { runner, model } = this;
    this.runner = null;
    this.model = null;
    tryDispose(() => runner?.dispose());
    if (model) tryDispose(() => tf.dispose(model.trainable));
  }
}

/** Thrown into a step that a backend switch abandoned. */
export class Abandoned extends Error {}

/** Tensors on a lost device may refuse to be disposed; the engine forgets them anyway. */
export function tryDispose(f: () => void): void {
  try {
    f();
  } catch (e) {
    console.warn('training worker: dispose failed', e);
  }
}
