/**
 * A shipped agent is one of env/world.ts's AGENTS: its card says which (`episode`, the longest
 * episode it is fine-tuned for; absent for the one-call agent, the plate's, whose checkpoints
 * predate the field), and its context must be the one that agent has. A run refuses a file that
 * holds another agent than the one it asked for, in words, before any step — and the episode it
 * plays must fit the agent's context: GRPO from it would play sums it never learnt, or cut its
 * episodes short.
 */
import type { EpisodeKind } from '../env/episode';
import { AGENTS, fitsContext, type AgentName } from '../env/world';
import { CheckpointError, MANIFEST_FILE, type CheckpointFiles } from '../model/checkpoint';

export function checkAgentWorld(files: CheckpointFiles, agent: AgentName, episode: EpisodeKind = agent): void {
  const { card, model } = files.manifest;
  const madeFor = card.episode ?? 'one-call';
  const file = files.where + MANIFEST_FILE;
  if (madeFor !== agent) throw new CheckpointError(file, `is the ${String(madeFor)} agent, not the ${agent} agent`);
  const needs = AGENTS[agent].context;
  if (model.context < needs || !fitsContext(episode, model.context))
    throw new CheckpointError(file, `has a context of ${model.context}; the ${agent} agent needs ${needs}`);
}
