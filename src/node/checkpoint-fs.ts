// Reading and writing checkpoint folders from Node; the format itself lives in src/model/checkpoint.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKPOINTS } from '../config';
import {
  checkWeights,
  CheckpointError,
  decodeCheckpoint,
  encodeCheckpoint,
  MANIFEST_FILE,
  parseManifest,
  weightsDigest,
  type CheckpointCard,
  type CheckpointFiles,
  type Manifest,
} from '../model/checkpoint';
import type { CharModel } from '../model/gpt';
import { AGENTS, type AgentName } from '../env/world';

/** The shipped checkpoints' folders, relative to the repository root. */
export const SHIPPED = {
  agent: join('public', CHECKPOINTS.agent),
  pretrained: join('public', CHECKPOINTS.pretrained),
  agentThreeCalls: join('public', CHECKPOINTS.agentThreeCalls),
};

/** An agent's shipped checkpoints: the agent, and the one worksheet model every agent is fine-tuned from. */
export const shippedFor = (agent: AgentName): { agent: string; pretrained: string } => ({
  agent: join('public', AGENTS[agent].checkpoint),
  pretrained: SHIPPED.pretrained,
});

export async function saveCheckpoint(dir: string, model: CharModel, card: CheckpointCard): Promise<void> {
  const { manifest, weights } = await encodeCheckpoint(model, card);
  manifest.card.weightsDigest = weightsDigest(weights); // the bits, for a check that a rebuild matches
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 1) + '\n');
  writeFileSync(join(dir, manifest.weightsFile), new Uint8Array(weights));
}

function readOrThrow(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CheckpointError(
      path,
      code === 'ENOENT' ? 'is missing' : `cannot be read (${code ?? (e as Error).message})`,
    );
  }
}

/** A checkpoint folder's two files, checked; throws a CheckpointError naming the bad file. */
export function readCheckpointFiles(dir: string): CheckpointFiles {
  const where = dir.endsWith('/') ? dir : dir + '/';
  const manifest = parseManifest(readOrThrow(join(dir, MANIFEST_FILE)).toString('utf8'), where);
  const bin = readOrThrow(join(dir, manifest.weightsFile));
  const weights = bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength) as ArrayBuffer;
  checkWeights(manifest, weights, where);
  return { manifest, weights, where };
}

export function loadCheckpoint(dir: string): { model: CharModel; manifest: Manifest } {
  const { manifest, weights, where } = readCheckpointFiles(dir);
  return { model: decodeCheckpoint(manifest, weights, where), manifest };
}
