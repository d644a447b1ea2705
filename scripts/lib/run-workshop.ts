// One headless run of the plate's pipeline from the checkpoint folders on disk, shared by the
// workshop, reference-runs and bench scripts and the pinned test: the same PipelineRun the
// page's worker drives, a stage after another, every record handed to `onRecord`.
import { AGENT_RECIPES, GRPO, STAGE_EVAL_EVERY, type AgentRecipe, type GrpoConfig } from '../../src/config';
import type { EpisodeKind } from '../../src/env/world';
import { PipelineRun, type PipelineSummary, type StageRecord } from '../../src/pipeline/run';
import { PLATE_SETTINGS, stagesFrom, type RunConfig } from '../../src/pipeline/stages';
import type { GrpoRecord } from '../../src/rl/grpo';
import { readCheckpointFiles, shippedFor } from './checkpoint-fs';

/** A run's config; the GRPO settings default to the plate's (masking on, group-relative, temperature 1, the exact grader). */
export interface WorkshopOptions
  extends Omit<RunConfig, keyof typeof PLATE_SETTINGS>, Partial<Pick<RunConfig, keyof typeof PLATE_SETTINGS>> {
  /**
   * The world (default: `grpo`'s, else one call): its shipped agent and recipe are the defaults,
   * and GRPO runs in it.
   */
  episode?: EpisodeKind;
  /** Checkpoint folders; default: the world's shipped ones under public/. */
  checkpoints?: { agent: string; pretrained: string };
  grpo?: GrpoConfig;
  recipe?: AgentRecipe;
  /** Measure the supervised stages every this many steps (default: as the page does). */
  evalEvery?: number;
}

export interface WorkshopRun extends PipelineSummary {
  /** The GRPO steps, 0..steps. */
  records: GrpoRecord[];
  /** Per-step curves as the plate draws them: held-out for steps 0..n, mean reward and true success for 1..n. */
  heldOut: number[];
  meanReward: number[];
  trueSuccess: number[];
}

/** Throws a CheckpointError (naming the file) if a checkpoint it needs is missing or corrupt. */
export async function runWorkshop(opts: WorkshopOptions, onRecord?: (r: StageRecord) => void): Promise<WorkshopRun> {
  const { start, seed, steps } = opts;
  const settings = { ...PLATE_SETTINGS, ...pick(opts) };
  const episode = opts.episode ?? opts.grpo?.episode ?? GRPO.episode;
  const dirs = opts.checkpoints ?? shippedFor(episode);
  const sources = {
    recipe: opts.recipe ?? AGENT_RECIPES[episode],
    grpo: { ...(opts.grpo ?? GRPO), episode },
    evalEvery: opts.evalEvery ?? STAGE_EVAL_EVERY,
    agent: readCheckpointFiles(dirs.agent),
    pretrained: async () => readCheckpointFiles(dirs.pretrained),
  };
  const run = new PipelineRun(1, { start, seed, steps, ...settings }, stagesFrom(start), sources, null);
  const records: GrpoRecord[] = [];
  try {
    for (let complete = false; !complete;) {
      const out = await run.step();
      complete = out.complete;
      const { complete: _, ...record } = out;
      if (record.stage === 'grpo') records.push(record.record);
      onRecord?.(record);
    }
    return {
      ...run.summary(),
      records,
      heldOut: records.map((r) => r.heldOut),
      meanReward: records.flatMap((r) => (r.meanReward === null ? [] : [r.meanReward])),
      trueSuccess: records.flatMap((r) => (r.trueSuccess === null ? [] : [r.trueSuccess])),
    };
  } finally {
    run.dispose();
  }
}

/** The GRPO settings `opts` gives (undefined ones left out, so the defaults stand). */
function pick(opts: WorkshopOptions): Partial<Pick<RunConfig, keyof typeof PLATE_SETTINGS>> {
  const { faulty, masking, advantage, temperature, grader } = opts;
  return Object.fromEntries(
    Object.entries({ faulty, masking, advantage, temperature, grader }).filter(([, v]) => v !== undefined),
  );
}
