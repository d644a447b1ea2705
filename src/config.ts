/**
 * One typed config for the whole plate: model size, the agent recipe, GRPO knobs and the
 * workshop sizes. Every odd number has its reason beside it. Pass these objects (or
 * partial overrides of them) around; nothing else in the code base hard-codes a size.
 */
import type { CalculatorName } from './env/calculator';
import type { Grader } from './env/grader';
import type { AgentName, EpisodeKind } from './env/episode';
import { VOCAB } from './model/vocab';

export interface ModelConfig {
  vocabSize: number;
  /** Longest transcript the model can see; `^99+99=B99+99|198|198|` is 22 characters. */
  context: number;
  layers: number;
  dModel: number;
  heads: number;
  /** Dropout on attention/MLP outputs in supervised training only; never while sampling or in RL. */
  dropout: number;
}

export const MODEL: ModelConfig = {
  vocabSize: VOCAB.length,
  context: 32, // room for the longest legal episode (22) plus over-long segments before they are cut
  layers: 2,
  dModel: 64,
  heads: 4, // head size 16
  dropout: 0.1,
};

/**
 * Each agent's context (env/world.ts's AGENTS): room for the longest transcript the episode rules
 * allow in every world it plays, every segment at its longest (env/episode.ts's longestEpisode: 26
 * for one call, 60 for three), so no episode is ever cut by the context. The three-call agent is
 * the worksheet model (context 32) with its position table widened to 64 before fine-tuning
 * (model/widen.ts): 60 rounded up to 64, the PyTorch prototype's context.
 */
export const AGENT_CONTEXT: Record<AgentName, number> = { 'one-call': MODEL.context, 'three-calls': 64 };

export type WorksheetFormat = 'plain' | 'restate';

interface PretrainConfig {
  steps: number;
  batch: number;
  lr: number;
  /** plain: `3+4=7|`; restate: `3+4=3+4|7|` (the problem is written again before the answer). */
  format: WorksheetFormat;
}

interface SftConfig {
  steps: number;
  lr: number;
  /** Exactly 30 demonstrations: the plate's claim is what 30 examples can teach. */
  demonstrations: number;
  /** Decoupled (AdamW-style) weight decay on matrices. */
  weightDecay: number;
  /** Worksheet lines mixed into each fine-tuning batch, so SFT does not wipe the pre-trained skill. */
  worksheetRows: number;
  /**
   * Early stopping: every this many steps, score greedy success on the 40 validation sums and
   * keep the best weights (ties go to the later step). 0 = keep the last step's weights.
   */
  selectEvery: number;
  /**
   * An agent of a longer episode only: this many demonstrations of each shorter episode (one call,
   * two calls) join every batch beside its own (absent: none), so it plays every length.
   */
  shorterDemonstrations?: number;
}

export interface AgentRecipe {
  /**
   * The agent the recipe makes, by the longest episode it is fine-tuned for: its demonstrations,
   * validation sums and context (absent: the one-call agent, so the shipped recipe and its
   * checkpoint's card read as before).
   */
  episode?: AgentName;
  /** Seeds the initial weights and pre-training (the shipped worksheet model). */
  seed: number;
  /** Seeds fine-tuning (the page's seed when a reader fine-tunes the shipped worksheet model). */
  sftSeed: number;
  /** The worksheet model's shape; the three-call agent widens its context to AGENT_CONTEXT's. */
  model: ModelConfig;
  pretrain: PretrainConfig;
  sft: SftConfig;
}

/**
 * The shipped recipe (docs/results.md, "The model and the recipe", has the sweep behind it). Pre-training is short
 * (100 steps): longer worksheet training makes the model recompute sums instead of copying the
 * tool's result. Dropout, weight decay and worksheet lines mixed into every fine-tuning batch keep
 * 200 steps on 30 demonstrations from memorising them. Chosen on the 40 validation sums only.
 */
export const AGENT_RECIPE: AgentRecipe = {
  // The shipped worksheet model: of pre-training seeds 1–5, the one whose fine-tunes (seeds 1–10)
  // have the median validation success nearest the plate's 77% (81%), so a reader who fine-tunes
  // it in the page with any seed lands near the plate most often.
  seed: 2,
  // The shipped agent: of fine-tuning seeds 1–5 from it, the one whose validation success is the
  // median (88%, seeds 1 and 2; the lower), not the best.
  sftSeed: 1,
  model: MODEL,
  pretrain: { steps: 100, batch: 32, lr: 1e-3, format: 'plain' },
  sft: { steps: 200, lr: 1e-3, demonstrations: 30, weightDecay: 0.1, worksheetRows: 8, selectEvery: 0 },
};

/**
 * Which characters the loss covers (rl/credit.ts gives each its meaning): 'model' is
 * observation masking, as the plate does it; 'model+env' also trains on the calculator's
 * result; 'all' adds the prompt.
 */
export type LossMask = 'model' | 'model+env' | 'all';

/** 'group': the group-relative advantage (GRPO); 'raw': the reward itself, no baseline (rl/credit.ts). */
export type Advantage = 'group' | 'raw';
export const ADVANTAGES: readonly Advantage[] = ['group', 'raw'];

/**
 * The three-call agent (docs/results.md, "Three calls: the agent"): the shipped worksheet model,
 * its context widened to 64, fine-tuned on the 30 demonstrations of each length at once (one, two
 * and three calls: 90 episodes a batch), so one agent plays every world and the claims can hold it
 * fixed while the episode grows. 1000 steps, five times the one-call recipe's: at 600 (the PyTorch
 * prototype's) validation was still rising, and its mean over seeds 1–5 went on rising to 1000
 * (every 100 steps from 600: 59.2, 60.8, 64.8, 66.7, 71.5%; longer was not tried, since a reader who
 * fine-tunes in the page waits for every step). Chosen on the 120 validation sums of the three
 * worlds only.
 */
const AGENT_RECIPE_THREE_CALLS: AgentRecipe = {
  ...AGENT_RECIPE,
  episode: 'three-calls',
  // Of fine-tuning seeds 1–5 from the shipped (float16) worksheet model, the one whose validation
  // success is the median: 69% (seeds 1–5: 48, 69, 66, 88, 86%), as for the one-call agent.
  sftSeed: 2,
  sft: { ...AGENT_RECIPE.sft, steps: 1000, shorterDemonstrations: 30 },
};

/** Each agent's recipe. */
export const AGENT_RECIPES: Record<AgentName, AgentRecipe> = {
  'one-call': AGENT_RECIPE,
  'three-calls': AGENT_RECIPE_THREE_CALLS,
};

/**
 * GRPO over whole episodes. The loss is the clipped policy objective with no KL term (β = 0: no
 * reference model), averaged over every character the model wrote in the batch — one mean over
 * all those characters, not a mean per episode first, so a long episode weighs by its length.
 */
export interface GrpoConfig {
  steps: number;
  /** Distinct training sums per step (the groups). */
  sumsPerStep: number;
  /** Episodes sampled per sum (the group size). */
  episodesPerSum: number;
  /** The sampling temperature (1 is the plate's). */
  temperature: number;
  lr: number;
  /** PPO-style ratio clip ε. */
  clipEps: number;
  /**
   * Policy updates per sampled batch. With 1 the "old" policy is the current one, the
   * ratio is exactly 1 and the clip never fires (TRL's default too); >1 reuses the batch.
   */
  updatesPerBatch: number;
  /**
   * Divide each group's centred rewards by its std (GRPO); false: centred only — the advantage
   * half of Dr. GRPO (its other half, no per-episode length mean, holds here either way).
   */
  scaleByStd: boolean;
  /** Keeps the std division finite for groups with tiny spread. */
  stdEps: number;
  /** The training episodes' calculator (the held-out evaluation always uses the reliable one). */
  calculator: CalculatorName;
  /** Probability the faulty calculator lies. */
  faultyRate: number;
  lossMask: LossMask;
  advantage: Advantage;
  /**
   * Run the held-out evaluation and the next step's sampling as one batch (same weights, same
   * random draws): one rollout's fixed cost instead of two. Off: each on its own, so each one's
   * time is measured apart (npm run workshop -- --separate-batches).
   */
  shareBatch: boolean;
  /**
   * Who pays the training episodes (env/grader.ts): 'exact', the plate's, or one of two bugs.
   * The held-out evaluation is graded exactly whatever this says.
   */
  grader: Grader;
  /** The world (env/world.ts): its sums, and how many calls an episode makes. */
  episode: EpisodeKind;
  /**
   * How long the calculator takes to answer, in milliseconds; 0 = instantly (the plate's). At a
   * lockstep position where some rows' calls are complete, the harness sends the batch's calls
   * together and waits this long once (rl/rollout.ts), as an agent harness waits on a tool.
   */
  toolLatencyMs: number;
  /**
   * A measurement knob, off on the page: the learning rate rises linearly to `lr` over this many
   * steps (step t at lr·t/N); 0 = none, the plate's. For the first dip (scripts/first-dip.ts).
   */
  lrWarmupSteps: number;
  /**
   * A measurement knob, off on the page: the first this many steps run at learning rate 0 — the
   * weights stay put while Adam's moments fill up on as many batches; 0 = none, the plate's.
   */
  lrHoldSteps: number;
}

export const GRPO: GrpoConfig = {
  steps: 40,
  sumsPerStep: 8,
  episodesPerSum: 8,
  temperature: 1,
  lr: 3e-4,
  clipEps: 0.2,
  updatesPerBatch: 1,
  scaleByStd: true,
  stdEps: 1e-4,
  calculator: 'reliable',
  faultyRate: 0.3,
  lossMask: 'model',
  advantage: 'group',
  shareBatch: true,
  grader: 'exact',
  episode: 'one-call',
  toolLatencyMs: 0,
  lrWarmupSteps: 0,
  lrHoldSteps: 0,
};

/**
 * Rows per part of a step's work on the plain-JavaScript backend (model/parts.ts), the one an
 * engine without WebAssembly trains on: without its JIT a GRPO step there takes minutes, and
 * cut so, its parts take a few seconds each (`node --jitless`: a rollout's 16 rows at one
 * position ~0.3 s, the update's 2 rows ~1.4 s, a forward pass's 8 transcripts ~1 s; a browser's
 * interpreter up to ~4× that). The update sums its parts' gradients: the same as one batch up to
 * float rounding. Other backends take each phase whole (a step is ~70 ms on WASM).
 */
export const CPU_PARTS = { rolloutRows: 16, updateRows: 2, forwardRows: 8 };

/**
 * The seed of the page's default run (and `npm run workshop`'s): of the reference runs' five
 * seeds, the one whose runs — reliable and faulty together — land nearest the plate's statements,
 * chosen from the weights as shipped (docs/results.md, "The live run against the plate"). The
 * reader may draw another.
 */
export const DEFAULT_SEED = 4;

/** The reference runs' seeds: the bands' spread. */
export const REFERENCE_SEEDS = [1, 2, 3, 4, 5] as const;

/**
 * In the page's pipeline, a fine-tuning stage scores greedy held-out success (and pre-training
 * its worksheet sums) every this many steps: 20 points on a 200-step chart, ~30 ms each.
 */
export const STAGE_EVAL_EVERY = 10;

/**
 * The shipped checkpoints: folders under public/, so `public/${CHECKPOINTS.agent}/` in Node
 * and `${assetBase}${CHECKPOINTS.agent}/` in the page. Nothing else spells these paths.
 */
export const CHECKPOINTS = {
  agent: 'checkpoints/agent',
  pretrained: 'checkpoints/pretrained',
  /** The three-call agent: the same worksheet model, widened and fine-tuned on the demonstrations of every length. */
  agentThreeCalls: 'checkpoints/agent-three-calls',
} as const;
