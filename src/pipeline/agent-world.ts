/**
 * An agent is made for one world (env/world.ts): its card says which (`episode`, absent for the
 * one-call world, the plate's, whose agents predate the field), and its context must hold that
 * world's longest episode. A run refuses an agent of another world than the one it asked for by
 * its file, in words, before any step — and the episode it plays must fit the agent's context:
 * GRPO from it would play sums it never learnt, or cut its episodes short.
 */
import type { EpisodeKind } from '../env/episode';
import { WORLDS } from '../env/world';
import { CheckpointError, MANIFEST_FILE, type CheckpointFiles } from '../model/checkpoint';

export function checkAgentWorld(files: CheckpointFiles, agent: EpisodeKind, episode: EpisodeKind = agent): void {
  const { card, model } = files.manifest;
  const madeFor = card.episode ?? 'one-call';
  const file = files.where + MANIFEST_FILE;
  if (madeFor !== agent)
    throw new CheckpointError(file, `is the ${String(madeFor)} world's agent, not the ${agent} world's`);
  const needs = Math.max(WORLDS[agent].context, WORLDS[episode].context);
  if (model.context < needs)
    throw new CheckpointError(file, `has a context of ${model.context}; the ${agent} world's agent needs ${needs}`);
}
