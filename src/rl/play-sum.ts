/**
 * The reader's own sum, played by the current policy: once greedily with the reliable calculator
 * (what the agent does, as the held-out evaluation plays), and a group of episodes sampled at the
 * run's temperature with the calculator as switched (what a GRPO step would see for this sum).
 * Both are graded exactly, whatever grader a run trains with: the reader asks whether the agent
 * gets the sum right. One batch. Its random draws come from the `rng` given, never from a run's streams, and it only
 * reads the weights: asking never changes a run.
 */
import { faultyCalculator, reliableCalculator } from '../env/calculator';
import type { Sum } from '../env/sums';
import { createRng, type Rng } from '../lib/rng';
import { rolloutRows, type EpisodeRecord, type Policy, type RolloutRow } from './rollout';

export interface AskOptions {
  faulty: boolean;
  faultyRate: number;
  temperature: number;
  /** Sampled episodes (a group's size). */
  samples: number;
  /** The asks' own stream: the sampling draws from one stream made from it, the calculator from another. */
  rng: Rng;
}

export async function playSum(
  model: Policy,
  sum: Sum,
  o: AskOptions,
): Promise<{ greedy: EpisodeRecord; samples: EpisodeRecord[] }> {
  const sampling = createRng(o.rng.seed());
  const calculator = o.faulty ? faultyCalculator(createRng(o.rng.seed()), o.faultyRate) : reliableCalculator;
  const rows: RolloutRow[] = [
    { sum, calculator: reliableCalculator, grader: 'exact', greedy: true },
    ...Array.from({ length: o.samples }, () => ({ sum, calculator, grader: 'exact' as const, greedy: false })),
  ];
  const [greedy, ...samples] = await rolloutRows(model, rows, { temperature: o.temperature, rng: sampling });
  return { greedy: greedy!, samples };
}
