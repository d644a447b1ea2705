// One headless run of the plate's pipeline from the checkpoint folders on disk, shared by the
// workshop, reference-runs and bench scripts and the pinned test: the same PipelineRun the
// page's worker drives, a stage after another, every record handed to `onRecord`.
import { AGENT_RECIPES, GRPO, STAGE_EVAL_EVERY, type AgentRecipe, type GrpoConfig } from '../config';
import { agentOf } from '../env/world';
import { PipelineRun, type BetweenRecordParts, type PipelineSummary, type StageRecord } from '../pipeline/run';
import { stagesFrom } from '../pipeline/stages';
import { PLATE_SETTINGS, SETTING_KEYS, type RunConfig, type RunSettings } from '../pipeline/settings';
import type { GrpoRecord } from '../rl/grpo';
import { readCheckpointFiles, shippedFor } from './checkpoint-fs';

/** A run's config; each setting defaults to the plate's (src/pipeline/settings.ts), the world (`episode`) too. */
export interface WorkshopOptions extends Partial<RunSettings>, Pick<RunConfig, 'seed' | 'steps'> {
  /** Checkpoint folders; default: the shipped ones under public/ of the world whose agent plays (`agent`). */
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

/**
 * Throws a CheckpointError (naming the file) if a checkpoint it needs is missing or corrupt.
 * between: called between a record's parts (model/parts.ts; the cpu backend's).
 */
export async function runWorkshop(
  opts: WorkshopOptions,
  onRecord?: (r: StageRecord) => void,
  between?: BetweenRecordParts,
): Promise<WorkshopRun> {
  const config: RunConfig = { ...PLATE_SETTINGS, ...given(opts), seed: opts.seed, steps: opts.steps };
  const dirs = opts.checkpoints ?? shippedFor(agentOf(config));
  const sources = {
    recipe: opts.recipe ?? AGENT_RECIPES[agentOf(config)],
    grpo: opts.grpo ?? GRPO,
    evalEvery: opts.evalEvery ?? STAGE_EVAL_EVERY,
    agent: readCheckpointFiles(dirs.agent),
    pretrained: async () => readCheckpointFiles(dirs.pretrained),
  };
  const run = new PipelineRun(1, config, stagesFrom(config.start), sources, null);
  const records: GrpoRecord[] = [];
  try {
    for (let complete = false; !complete;) {
      const out = await run.step(between);
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

/** The settings `opts` gives (undefined ones left out, so the plate's stand). */
const given = (opts: WorkshopOptions): Partial<RunSettings> =>
  Object.fromEntries(SETTING_KEYS.flatMap((k) => (opts[k] === undefined ? [] : [[k, opts[k]]])));
