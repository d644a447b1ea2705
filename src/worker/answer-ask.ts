/**
 * A reader's ask, answered in the worker between steps: the run's current policy (or, with no
 * run model, the shipped agent) plays the sum (rl/play-sum.ts). The answer says which weights played
 * it and where the sum stands in the split. A failure becomes an answer with an error in words;
 * every tensor made here is freed either way.
 */
import type { GrpoConfig } from '../config';
import { sumKind } from '../env/sums';
import type { Rng } from '../lib/rng';
import { decodeCheckpoint, type CheckpointFiles } from '../model/checkpoint';
import type { CharModel } from '../model/gpt';
import { askView } from '../protocol/episode-view';
import type { AnsweredBy, AskAnswer, AskQuestion } from '../protocol/messages';
import type { Stage } from '../pipeline/stages';
import { playSum } from '../rl/play-sum';
import { tryDispose } from '../pipeline/run';

export interface AskContext {
  /** The live (or last) run's model and its latest record, if it has one. */
  policy: { model: CharModel; stage: Stage; step: number } | null;
  runId: number;
  /** The shipped agent, for when no run has a model. */
  agent: CheckpointFiles;
  grpo: Pick<GrpoConfig, 'episodesPerSum' | 'faultyRate'>;
  /** The asks' own random stream (never a run's). */
  rng: Rng;
}

export async function answerAsk(
  q: AskQuestion,
  ctx: AskContext,
  guard: <T>(p: Promise<T>) => Promise<T> = (p) => p,
): Promise<AskAnswer> {
  let shipped: CharModel | null = null;
  try {
    shipped = ctx.policy ? null : decodeCheckpoint(ctx.agent.manifest, ctx.agent.weights, ctx.agent.where);
    const model = ctx.policy?.model ?? shipped!;
    const by: AnsweredBy = ctx.policy
      ? { kind: 'run', runId: ctx.runId, stage: ctx.policy.stage, step: ctx.policy.step }
      : { kind: 'shipped' };
    const play = playSum(model, q.sum, {
      faulty: q.faulty,
      faultyRate: ctx.grpo.faultyRate,
      temperature: q.temperature,
      samples: ctx.grpo.episodesPerSum,
      rng: ctx.rng,
    });
    // The decoded agent is freed once its play settles, not before: an ask abandoned on a lost
    // device may still be running on those weights. (Registered first, so it runs first.)
    const decoded = shipped;
    shipped = null;
    const release = () => decoded && tryDispose(() => decoded.dispose());
    play.then(release, release);
    const played = await guard(play);
    return {
      id: q.id,
      sum: q.sum,
      ...sumKind(q.sum),
      by,
      faulty: q.faulty,
      temperature: q.temperature,
      greedy: askView(played.greedy),
      samples: played.samples.map(askView),
    };
  } catch (e) {
    return { id: q.id, sum: q.sum, error: `The agent could not answer: ${(e as Error).message}` };
  } finally {
    // Only if decoding succeeded and the play never began.
    if (shipped) tryDispose(() => shipped!.dispose());
  }
}
