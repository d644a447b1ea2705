/**
 * The worker's session, free of `self` so Node tests can drive it. Commands go through the
 * table in session-table.ts; one driver loop asks that table what to do next (take a job,
 * step, finish, pause, or wait) and is the only code that touches the model, so a command
 * never lands in the middle of a step. Events go out through `post`.
 */
import * as tf from '@tensorflow/tfjs';
import { AGENT_RECIPES, GRPO, STAGE_EVAL_EVERY, type AgentRecipe, type GrpoConfig } from '../config';
import type { AgentName, EpisodeKind } from '../env/episode';
import { agentOf } from '../env/world';
import { checkAgentWorld } from '../pipeline/agent-world';
import { CheckpointError } from '../model/checkpoint';
import { fusedModule } from '../model/fused/module';
import { NonFiniteLossError } from '../model/non-finite';
import type { BackendChoice, BackendRequest } from './backend-race';
import type { CheckpointFiles } from '../model/checkpoint';
import { BACKEND_LABEL, type EngineReport } from '../protocol/backends';
import { stageView } from '../protocol/episode-view';
import type {
  AskQuestion,
  CheckpointSource,
  CheckpointUrls,
  Command,
  ErrorKind,
  WorkerEvent,
} from '../protocol/messages';
import type { BackendName } from '../protocol/backends';
import { Abandoned, PipelineRun, tryDispose, type RecordProgress } from '../pipeline/run';
import { grpoConfigOf } from '../pipeline/settings';
import { createRng } from '../lib/rng';
import { IdleWarmUp } from './warm-up';
import { jsSlowdown, webAssemblyHere } from './engine';
import { answerAsk } from './answer-ask';
import { INITIAL, isLive, plan, transition, type Effect, type Input, type Job, type Plan } from './session-table';

export interface SessionDeps {
  post(event: WorkerEvent): void;
  selectBackend(req: BackendRequest): Promise<BackendChoice>;
  fetchCheckpoint(source: CheckpointSource): Promise<CheckpointFiles>;
  /** Lets queued messages through between steps (a macrotask in the worker). */
  yieldToMessages?(): Promise<void>;
  grpo?: GrpoConfig;
  /** The one-call agent's recipe (a test's shorter stages); the three-call agent's is always its own. */
  recipe?: AgentRecipe;
  /**
   * Warm the engine while idle between Ready and the first thing to do (worker/warm-up.ts), on WASM:
   * the worker does; a test says so when it wants it.
   */
  warmUp?: boolean;
  /** How long a record computes without a word before it says how far it got (PROGRESS_EVERY_MS; a test's 0). */
  progressEveryMs?: number;
}

class BackendLost extends Error {}

/** A rejection handler: `value` where the work was abandoned (pipeline/run.ts), else the error again. */
const abandoned =
  <T>(value: T) =>
  (e: unknown): T => {
    if (e instanceof Abandoned) return value;
    throw e;
  };

/**
 * A record that takes longer than this says how far it got, between its parts (model/parts.ts),
 * at most this often: the page's watchdog hears it alive, and its status says the time left.
 */
const PROGRESS_EVERY_MS = 1000;

/** Seeds the asks' stream (any constant: an ask's samples only need to be random, not to match anything). */
const ASK_SEED = 0x61736b;

/** The idle warm-up's model, or null if it cannot be made: the warm-up is a bonus, never a reason to fail loading. */
function tryWarmUp(): IdleWarmUp | null {
  try {
    return new IdleWarmUp();
  } catch (e) {
    console.warn(`training worker: no idle warm-up (${(e as Error).message})`);
    return null;
  }
}

/**
 * One macrotask, so the commands queued during a step are handled before the next. Not
 * setTimeout(0): chained from timer to timer it is clamped to 4 ms, which is idle time on every
 * step; a message to ourselves is not.
 */
function macrotask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

export class WorkerSession {
  private state = INITIAL;
  private readonly grpo: GrpoConfig;
  private readonly recipes: Record<AgentName, AgentRecipe>;
  private urls: CheckpointUrls | null = null;
  /** Where the backends' files are (the init command's), for a switch after a lost device too. */
  private files: Pick<BackendRequest, 'wasm' | 'modules'> | null = null;
  /** The one-call world's agent, loaded before Ready: the plate's, and the asks'. */
  private agent: CheckpointFiles | null = null;
  /** The three-call agent (the two- and three-call worlds' own): fetched when a run first needs it, never before. */
  private agentThreeCalls: Promise<CheckpointFiles> | null = null;
  private pretrained: Promise<CheckpointFiles> | null = null;
  private backend: BackendName | null = null;
  /** Who takes over after a lost device, fastest measured first (the backend race's ranking). */
  private ranking: readonly BackendName[] = [];
  private work: PipelineRun | null = null;
  private driving = false;
  /**
   * Rejects the step in flight when the backend's device is lost; null between steps. A fresh
   * promise per step: racing every step against one long-lived promise would leave a reaction
   * on it per step, each holding that step's record for the life of the worker.
   */
  private abortStep: ((e: Error) => void) | null = null;
  /** The reader's asks draw from this stream, never from a run's: asking leaves every run as it was. */
  private readonly askRng = createRng(ASK_SEED);
  /** The idle warm-up, from Ready until the first thing to do: then disposed, and never resumed. */
  private warming: IdleWarmUp | null = null;
  /** When this session last posted: a record's progress is said only after a second without a word. */
  private lastPost = 0;
  /** JavaScript's speed, probed once where plain JavaScript first trains (worker/engine.ts). */
  private slowdown: number | null = null;

  constructor(private readonly deps: SessionDeps) {
    this.grpo = deps.grpo ?? GRPO;
    this.recipes = { ...AGENT_RECIPES, ...(deps.recipe && { 'one-call': deps.recipe }) };
  }

  private post(event: WorkerEvent): void {
    this.lastPost = performance.now();
    this.deps.post(event);
  }

  handle(cmd: Command): void {
    if (cmd.type !== 'init') return this.input({ type: 'command', command: cmd });
    if (this.state.lifecycle !== 'new')
      return console.warn('training worker: a second init was ignored; start a new worker instead');
    this.input({ type: 'init' });
    void this.load(cmd).then((ok) => this.input({ type: 'loaded', ok }));
  }

  /** The backend failed under us (a lost GPU device): continue on the next one. */
  backendLost(cause: string): void {
    // At once, not when the switch is taken: a step finishing on the lost device must not
    // record itself in the run that is about to replay up to its last recorded step.
    this.work?.abandonStep();
    this.abortStep?.(new BackendLost(cause));
    this.input({ type: 'lost', cause });
  }

  private input(i: Input): void {
    const { state, effects } = transition(this.state, i);
    this.state = state;
    effects.forEach((e) => this.effect(e));
    if (!this.driving) void this.drive();
  }

  private effect(e: Effect): void {
    if (e.type === 'warn') return console.warn(e.message);
    if (e.type === 'configured') this.work?.reconfigure(e.config);
    this.post(e);
  }

  private async load(cmd: Extract<Command, { type: 'init' }>): Promise<boolean> {
    const t0 = performance.now();
    const post = (e: WorkerEvent) => this.post(e);
    this.urls = cmd.checkpoints;
    this.files = { wasm: cmd.wasm, modules: cmd.backends };
    post({
      type: 'loading',
      stage: 'backend',
      message: cmd.backend ? `Starting the ${cmd.backend} backend…` : 'Choosing a backend…',
    });
    // The weights download while the backend starts.
    const fetched = this.deps.fetchCheckpoint(cmd.checkpoints.agent);
    fetched.catch(() => {}); // reported below, after the backend
    try {
      const choice = await this.deps.selectBackend({
        forced: cmd.backend,
        calibrate: cmd.calibrate,
        cached: cmd.race,
        ...this.files,
        onLost: (r) => this.backendLost(r),
      });
      this.backend = choice.backend;
      this.ranking = choice.ranking;
      post({ type: 'loading', stage: 'checkpoint', message: 'Loading the agent checkpoint…' });
      this.agent = await fetched;
      checkAgentWorld(this.agent, 'one-call');
      const heldOut = (this.agent.manifest.card.success as { heldOut?: unknown } | undefined)?.heldOut;
      const { backend, reason, skipped, race } = choice;
      const kernels = fusedModule() ? 'fused' : 'unfused';
      post({
        type: 'ready',
        backend,
        reason,
        skipped,
        race,
        loadMs: performance.now() - t0,
        checkpointHeldOut: typeof heldOut === 'number' ? heldOut : null,
        kernels,
        engine: this.engine(backend),
      });
      // WASM only: a slice on the CPU backend takes seconds (a command would wait that long), and
      // on a GPU the race's calibration has compiled the shaders already where one was measured.
      if (this.deps.warmUp && backend === 'wasm') this.warming = tryWarmUp();
      return true;
    } catch (e) {
      const kind: ErrorKind =
        e instanceof CheckpointError ? 'checkpoint' : this.backend === null ? 'backend' : 'internal';
      const what =
        kind === 'checkpoint'
          ? 'The checkpoint could not be loaded'
          : kind === 'backend'
            ? 'No backend could start'
            : 'Loading failed';
      post({ type: 'error', kind, message: `${what}: ${(e as Error).message}` });
      return false;
    }
  }

  /**
   * The one loop that touches the model: asks the table what to do until it says wait. A
   * failure fails the run and the loop goes on, so a command that came in meanwhile is acted on.
   */
  private async drive(): Promise<void> {
    this.driving = true;
    for (;;) {
      const p = plan(this.state);
      if (p.type === 'wait') {
        // Decided without an await: a command that lands while the driver is suspended finds it
        // driving and leaves the plan to it, so the driver must not stop after one.
        if (!this.warming || this.state.lifecycle !== 'ready') break;
        await this.warm(this.warming);
        continue;
      }
      this.endWarmUp();
      try {
        await this.act(p);
      } catch (e) {
        this.fail('internal', `Training stopped: ${(e as Error).message}`);
      }
    }
    this.driving = false;
  }

  /**
   * One slice of the idle warm-up, then the messages that came meanwhile (a Run waits for one
   * slice at most). A failure ends the warm-up only: the first steps then warm up the engine
   * themselves, as they would without it.
   */
  private async warm(w: IdleWarmUp): Promise<void> {
    try {
      if (!(await w.slice())) this.endWarmUp();
    } catch (e) {
      console.warn(`training worker: the idle warm-up stopped (${(e as Error).message})`);
      this.endWarmUp(false);
    }
    await (this.deps.yieldToMessages ?? macrotask)();
  }

  /**
   * Frees the warm-up's model and, unless it failed, says what it did (complete: false when a
   * command cut it short). Its tensors never reach a run's records.
   */
  private endWarmUp(say = true): void {
    const w = this.warming;
    if (!w) return;
    this.warming = null;
    const { slices, ms } = w.summary();
    const complete = w.finished;
    tryDispose(() => w.dispose());
    if (say && slices.length > 0) this.post({ type: 'warmed', ms, slices, complete });
  }

  private async act(p: Exclude<Plan, { type: 'wait' }>): Promise<void> {
    switch (p.type) {
      case 'take':
        return this.job(p.job);
      case 'step':
        return this.step();
      case 'apply':
        return this.input({ type: 'apply' });
      case 'answer':
        return this.answer(p.ask);
      case 'finish':
        return this.finish();
      case 'pause':
        return this.pauseRun();
      default:
        p satisfies never;
    }
  }

  /** Takes the job at the head of the queue and does it. */
  private async job(job: Job): Promise<void> {
    switch (job.type) {
      case 'switch':
        this.input({ type: 'took' });
        return this.switchBackend(job.cause);
      case 'reset':
        this.input({ type: 'took' });
        this.dropWork();
        this.post({ type: 'reset' });
        return;
      case 'start': {
        // The agent of the run this one restarts GRPO from; without it, the whole pipeline runs.
        const agent = job.from !== null && this.work?.id === job.from ? this.work.agent : null;
        this.input({ type: 'took', reuse: agent !== null });
        const run = this.state.run!;
        this.dropWork();
        this.post({
          type: 'started',
          runId: run.id,
          config: run.config,
          stages: [...run.stages],
          from: agent ? job.from : null,
          begin: job.begin,
        });
        const player = agentOf(run.config);
        const shipped = await this.shippedAgent(player, run.config.episode);
        if (shipped === null) return;
        this.work = new PipelineRun(run.id, run.config, run.stages, this.sources(player, shipped), agent);
        return;
      }
      default:
        job satisfies never;
    }
  }

  /**
   * A shipped agent, to play `episode`: the one-call one is loaded; the three-call one is fetched
   * the first time a run needs it (its ~210 KB only for a reader who picks a longer episode or that
   * agent). On a failure the run fails, saying which file, and null comes back; a later run tries again.
   */
  private async shippedAgent(agent: AgentName, episode: EpisodeKind): Promise<CheckpointFiles | null> {
    if (agent === 'one-call') return this.agent!;
    try {
      this.agentThreeCalls ??= this.deps.fetchCheckpoint(this.urls!.agentThreeCalls).then((files) => {
        checkAgentWorld(files, 'three-calls', episode);
        return files;
      });
      return await this.agentThreeCalls;
    } catch (e) {
      this.agentThreeCalls = null;
      const why = e instanceof CheckpointError ? e.message : `${(e as Error).message}`;
      this.fail('checkpoint', `The three-call agent could not be loaded: ${why}`);
      return null;
    }
  }

  /** What a run needs, for the agent that plays it. */
  private sources(player: AgentName, agent: CheckpointFiles) {
    return {
      recipe: this.recipes[player],
      grpo: this.grpo,
      evalEvery: STAGE_EVAL_EVERY,
      agent,
      pretrained: () =>
        (this.pretrained ??= this.deps.fetchCheckpoint(this.urls!.pretrained).catch((e) => {
          this.pretrained = null; // a later run may try again
          throw e;
        })),
    };
  }

  /** `pending`, or a BackendLost as soon as the device is lost. */
  private async untilLost<T>(pending: Promise<T>): Promise<T> {
    try {
      const lost = new Promise<never>((_, reject) => (this.abortStep = reject));
      return await Promise.race([pending, lost]);
    } catch (e) {
      pending.catch(() => {}); // work abandoned on a lost device may still reject later
      throw e;
    } finally {
      this.abortStep = null;
    }
  }

  /**
   * A reader's ask, between steps, with the weights of this moment: the run's model if it has
   * one (even a finished or failed run's), else the shipped agent. Reads the weights only.
   */
  private async answer(ask: AskQuestion): Promise<void> {
    const policy = this.work?.policy ?? null;
    const ctx = { policy, runId: this.work?.id ?? 0, agent: this.agent!, grpo: this.grpo, rng: this.askRng };
    const answer = await answerAsk(ask, ctx, (p) => this.untilLost(p));
    this.post({ type: 'answer', answer });
    this.input({ type: 'answered' });
  }

  /** The engine as it is here; JavaScript's speed is probed the first time plain JavaScript trains (~40 ms). */
  private engine(backend: BackendName): EngineReport {
    if (backend === 'cpu') this.slowdown ??= jsSlowdown();
    return { webAssembly: webAssemblyHere(), jsSlowdown: this.slowdown };
  }

  /**
   * Between a record's parts (model/parts.ts): after a second without a word, says how far it
   * got and lets the messages that came meanwhile through. A reset or a new start among them
   * abandons the record (its run is going anyway), so it need not wait out a step of minutes.
   */
  private readonly between = (p: RecordProgress): Promise<void> | undefined => {
    const run = this.state.run;
    const every = this.deps.progressEveryMs ?? PROGRESS_EVERY_MS;
    if (!run || performance.now() - this.lastPost < every) return undefined;
    this.post({ type: 'progress', runId: run.id, ...p });
    return (this.deps.yieldToMessages ?? macrotask)().then(() => {
      if (this.state.queue.some((j) => j.type !== 'switch')) {
        this.work?.abandonStep();
        throw new Abandoned();
      }
    });
  };

  private async step(): Promise<void> {
    const work = this.work!;
    let out: Awaited<ReturnType<PipelineRun['step']>>;
    try {
      out = await this.untilLost(work.step(this.between));
    } catch (e) {
      if (e instanceof BackendLost || e instanceof Abandoned) return; // the switch waits at the head of the queue
      if (e instanceof NonFiniteLossError) return this.fail('non-finite-loss', e.message.replace(/^the/, 'The'));
      if (e instanceof CheckpointError)
        return this.fail('checkpoint', `The worksheet model could not be loaded: ${e.message}`);
      throw e;
    }
    const { complete, config, ...record } = out;
    const { numTensors, numBytes } = tf.memory();
    this.post({
      type: 'step',
      runId: work.id,
      config,
      memory: { numTensors, numBytes },
      ...stageView(record, grpoConfigOf(GRPO, config)),
    });
    this.input({ type: 'stepped', stage: record.stage, step: record.record.step, complete });
    await (this.deps.yieldToMessages ?? macrotask)();
  }

  // The table learns first, then the page: a command the page sends on hearing the event
  // (a Step on `paused`) must find the run already paused or done.
  private finish(): void {
    const work = this.work!;
    const { grpo, sftHeldOut, agentDigest, seconds } = work.summary();
    this.input({ type: 'finished' });
    this.post({ type: 'done', runId: work.id, summary: grpo, sftHeldOut, agentDigest, stageSeconds: seconds });
  }

  private pauseRun(): void {
    const run = this.state.run!;
    this.input({ type: 'paused' });
    this.post({ type: 'paused', runId: run.id, stage: run.stage, step: run.step });
  }

  private fail(kind: ErrorKind, message: string): void {
    this.post({ type: 'error', kind, message, runId: this.state.run?.id });
    this.input({ type: 'failed' });
  }

  /** Moves to the next backend; a live run replays its current stage there and goes on. */
  private async switchBackend(cause: string): Promise<void> {
    const from = this.backend!;
    const run = this.state.run;
    let choice: BackendChoice;
    try {
      choice = await this.deps.selectBackend({
        after: from,
        order: this.ranking,
        ...this.files!,
        onLost: (r) => this.backendLost(r),
      });
    } catch (e) {
      this.dropWork();
      this.post({
        type: 'error',
        kind: 'device-lost',
        message: `${cause}, and no other backend could start: ${(e as Error).message}`,
        runId: run?.id,
      });
      if (isLive(run)) this.input({ type: 'failed' });
      return;
    }
    this.backend = choice.backend;
    this.ranking = choice.ranking;
    // A start or reset waiting behind the switch replaces the run: replaying it would be wasted.
    const superseded = () => this.state.queue.some((j) => j.type !== 'switch');
    const work = isLive(this.state.run) ? this.work : null;
    const live = work !== null;
    const stage = work?.stage ?? null;
    const step = Math.max(work?.lastStepOfStage ?? 0, 0);
    // A start or reset that comes during the replay abandons it at a part (this.between), as it would between steps.
    const replayed = live && (await work.replay(superseded, this.between).catch(abandoned(false)));
    const label = stage === 'grpo' ? 'GRPO steps' : stage === 'sft' ? 'fine-tuning steps' : 'pre-training steps';
    const what =
      replayed && step > 0
        ? `; ${label} 1–${step} were replayed there`
        : live && !replayed
          ? '; the run was dropped for the new one'
          : '';
    this.post({
      type: 'backend-switched',
      runId: live ? work.id : 0,
      from,
      to: choice.backend,
      cause: `${cause}; continuing on ${BACKEND_LABEL[choice.backend]}${what}`,
      reason: choice.reason,
      skipped: choice.skipped,
      engine: this.engine(choice.backend),
      stage,
      step,
      replayed,
    });
  }

  private dropWork(): void {
    const work = this.work;
    this.work = null;
    if (work) tryDispose(() => work.dispose());
  }
}
