/**
 * The tool worlds: one call (the plate's), two or three — the same algorithm, a longer episode —
 * and the agents that play them. What differs between the worlds is data, here, and everything
 * else reads it from here: how many calls an episode makes, its sums, and which agent is its own;
 * of an agent, its context, the worlds it plays and where it ships. The episode rules themselves
 * (env/episode.ts) read the number of calls off the sum's terms, so a rollout needs no world to
 * play a sum.
 *
 * Two agents ship: the plate's, which plays one call only, and the three-call agent, fine-tuned on
 * the demonstrations of every length, which plays all three worlds — the two-call world's own
 * agent too — so a comparison of the worlds can hold the agent fixed.
 */
import { AGENT_CONTEXT, CHECKPOINTS } from '../config';
import { longestEpisode, type AgentName, type EpisodeKind } from './episode';
import { SPLIT, THREE_CALL_SPLIT, TWO_CALL_SPLIT, type SumSplit } from './sums';

export type { AgentName } from './episode';

export interface World {
  episode: EpisodeKind;
  /** Calculator calls per episode, one per term after the first. */
  calls: number;
  /** An episode played right, as a demonstration shows it. */
  example: string;
  /** Its 100 sums: training (demonstrations and validation) and held-out. */
  split: SumSplit;
  /** Its own agent: the one that plays a run in this world unless the run names another. */
  agent: AgentName;
}

export const WORLDS: Record<EpisodeKind, World> = {
  'one-call': {
    episode: 'one-call',
    calls: 1,
    example: '^23+45=B23+45|68|68|',
    split: SPLIT,
    agent: 'one-call',
  },
  'two-calls': {
    episode: 'two-calls',
    calls: 2,
    example: '^23+45+17=B23+45|68|B68+17|85|85|',
    split: TWO_CALL_SPLIT,
    // No agent of its own ships (the package's size): the three-call agent, which learnt it too.
    agent: 'three-calls',
  },
  'three-calls': {
    episode: 'three-calls',
    calls: 3,
    example: '^23+45+17+31=B23+45|68|B68+17|85|B85+31|116|116|',
    split: THREE_CALL_SPLIT,
    agent: 'three-calls',
  },
};

export interface Agent {
  name: AgentName;
  /** Its context: at least the longest transcript of every world it plays (a test checks it). */
  context: number;
  /** Where it ships, under the asset base (as CHECKPOINTS spells it). */
  checkpoint: string;
  /**
   * The worlds it plays: those whose demonstrations it was fine-tuned on (config.ts's recipe),
   * each of whose episodes fits its context (a test checks both).
   */
  plays: readonly EpisodeKind[];
}

export const AGENTS: Record<AgentName, Agent> = {
  'one-call': {
    name: 'one-call',
    context: AGENT_CONTEXT['one-call'],
    checkpoint: CHECKPOINTS.agent,
    plays: ['one-call'],
  },
  'three-calls': {
    name: 'three-calls',
    context: AGENT_CONTEXT['three-calls'],
    checkpoint: CHECKPOINTS.agentThreeCalls,
    plays: ['one-call', 'two-calls', 'three-calls'],
  },
};

export const AGENT_NAMES = Object.keys(AGENTS) as AgentName[];

/** An episode of `episode`'s world fits a context of `context` characters whatever the model writes. */
export const fitsContext = (episode: EpisodeKind, context: number): boolean =>
  longestEpisode(WORLDS[episode].calls) <= context;

/**
 * Which agent plays a run: the episode's own (the plate's choice), or a named agent — the
 * three-call agent on one- and two-call sums holds the agent fixed while the episode grows.
 */
export type AgentChoice = 'own' | AgentName;
export const AGENT_CHOICES: readonly AgentChoice[] = ['own', 'one-call', 'three-calls'];

/** The agent that plays a run. */
export const agentOf = (s: { episode: EpisodeKind; agent: AgentChoice }): AgentName =>
  s.agent === 'own' ? WORLDS[s.episode].agent : s.agent;

/**
 * The plate's world: its agent on one-call sums. The plate's numbers, and what was measured
 * against them, are that world's alone.
 */
export const isPlateWorld = (s: { episode: EpisodeKind; agent: AgentChoice }): boolean =>
  s.episode === 'one-call' && agentOf(s) === 'one-call';

/** A world's sums in words: "two-call sums". */
/** A world's length in words: "one call", "two calls". */
export const callsWords = (e: EpisodeKind): string =>
  `${['no', 'one', 'two', 'three', 'four'][WORLDS[e].calls] ?? WORLDS[e].calls} call${WORLDS[e].calls === 1 ? '' : 's'}`;

/** The same as an adjective: "one-call", "two-call". */
export const callsAdjective = (e: EpisodeKind): string => callsWords(e).replace(/ calls?$/, '-call');

const sumsOf = (e: EpisodeKind): string => `${callsAdjective(e)} sums`;

/** Why the chosen agent cannot play the run's world, in words; null when it can. */
export function agentRefusal(s: { episode: EpisodeKind; agent: AgentChoice }): string | null {
  const agent = AGENTS[agentOf(s)];
  if (agent.plays.includes(s.episode)) return null;
  return (
    `the ${agent.name} agent cannot play ${sumsOf(s.episode)}: it was fine-tuned on ${agent.plays.map(sumsOf).join(' and ')} only, ` +
    `and its context of ${agent.context} characters is shorter than the ${s.episode} world’s longest episode, ${longestEpisode(WORLDS[s.episode].calls)}`
  );
}
