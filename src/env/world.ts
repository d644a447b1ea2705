/**
 * The tool worlds: one call (the plate's), or two — the same algorithm, a longer episode. What
 * differs between them is data, here, and everything else reads it from here: how many calls an
 * episode makes, its sums, the context its agent needs and where that agent ships. The episode
 * rules themselves (env/episode.ts) read the number of calls off the sum's terms, so a rollout
 * needs no world to play a sum.
 */
import { AGENT_CONTEXT, CHECKPOINTS } from '../config';
import type { EpisodeKind } from './episode';
import { SPLIT, TWO_CALL_SPLIT, type SumSplit } from './sums';

export interface World {
  episode: EpisodeKind;
  /** Calculator calls per episode, one per term after the first. */
  calls: number;
  /** An episode played right, as a demonstration shows it. */
  example: string;
  /** Its 100 sums: training (demonstrations and validation) and held-out. */
  split: SumSplit;
  /** The agent's context: at least the longest transcript its rules allow (env/episode.ts's longestEpisode; a test checks it). */
  context: number;
  /** Where its fine-tuned agent ships, under the asset base (as CHECKPOINTS spells it). */
  agent: string;
  /**
   * The worlds its agent can play: its own, and any whose demonstrations it was fine-tuned on
   * too and whose episodes fit its context (a test checks both).
   */
  plays: readonly EpisodeKind[];
}

export const WORLDS: Record<EpisodeKind, World> = {
  'one-call': {
    episode: 'one-call',
    calls: 1,
    example: '^23+45=B23+45|68|68|',
    split: SPLIT,
    context: AGENT_CONTEXT['one-call'],
    agent: CHECKPOINTS.agent,
    plays: ['one-call'],
  },
  'two-calls': {
    episode: 'two-calls',
    calls: 2,
    example: '^23+45+17=B23+45|68|B68+17|85|85|',
    split: TWO_CALL_SPLIT,
    context: AGENT_CONTEXT['two-calls'],
    agent: CHECKPOINTS.agentTwoCalls,
    // Its recipe mixes the 30 one-call demonstrations in (config.ts), and 32 characters fit its 48.
    plays: ['two-calls', 'one-call'],
  },
};

/**
 * Which agent plays a run: the episode's own (the plate's choice), or a named world's agent —
 * the two-call agent on one-call sums holds the agent fixed while the episode grows.
 */
export type AgentChoice = 'own' | EpisodeKind;
export const AGENT_CHOICES: readonly AgentChoice[] = ['own', 'one-call', 'two-calls'];

/** The world whose agent plays a run. */
export const agentOf = (s: { episode: EpisodeKind; agent: AgentChoice }): EpisodeKind =>
  s.agent === 'own' ? s.episode : s.agent;

/**
 * The plate's world: its agent on one-call sums. The plate's numbers, and what was measured
 * against them, are that world's alone.
 */
export const isPlateWorld = (s: { episode: EpisodeKind; agent: AgentChoice }): boolean =>
  s.episode === 'one-call' && agentOf(s) === 'one-call';

const sumsOf = (e: EpisodeKind) => (e === 'two-calls' ? 'two-call sums' : 'one-call sums');

/** Why the chosen agent cannot play the run's world, in words; null when it can. */
export function agentRefusal(s: { episode: EpisodeKind; agent: AgentChoice }): string | null {
  const agent = agentOf(s);
  if (WORLDS[agent].plays.includes(s.episode)) return null;
  return (
    `the ${agent} agent cannot play ${sumsOf(s.episode)}: it was fine-tuned on ${sumsOf(agent)} only, ` +
    `and its context of ${WORLDS[agent].context} characters is shorter than the ${s.episode} world’s ${WORLDS[s.episode].context}`
  );
}
