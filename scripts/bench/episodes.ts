// `npm run bench -- episodes [--pairs N] [--steps N] [--tool-latency-ms MS] [--faulty]`: the three
// worlds' GRPO steps in one process, from each world's own shipped agent (seed 1, the reliable
// calculator or with --faulty the faulty one: more groups with spread, so more rows in the update),
// run in interleaved rounds — one, two, three calls, then three, two, one, … — so a shared machine's
// load falls on all alike. Per world: a step's median time and where it goes (sampling's share of
// the step's own work, TimeSplit), and its ratio to one call per round and pooled; then the same
// with a calculator that takes --tool-latency-ms (50) to answer, one run of at most 10 steps per world.
import { EPISODES, type EpisodeKind } from '../../src/env/episode';
import type { RunSettings } from '../../src/pipeline/settings';

/** The tool latencies a run may have (the reader's setting's choices). */
type ToolLatency = RunSettings['toolLatencyMs'];
import type { GrpoRecord } from '../../src/rl/grpo';
import { setNodeBackend } from '../lib/node-backend';
import { runWorkshop } from '../../src/node/run-workshop';
import { median } from './stats';

interface WorldSteps {
  /** Every step's total (ms), steps ≥ 1, over every run of the world. */
  totals: number[];
  /** Every step's sampling share of its own work. */
  samplingShares: number[];
}

export interface EpisodesBench {
  steps: number;
  faulty: boolean;
  pairs: number;
  toolLatencyMs: ToolLatency;
  /** Per world: the median step (ms) and the median sampling share, instant calculator. */
  instant: Record<EpisodeKind, { stepMs: number; samplingShare: number }>;
  /** Two and three calls ÷ one call: of the pooled medians, and of each round's medians. */
  ratio: Record<EpisodeKind, number>;
  pairRatios: Record<EpisodeKind, number>[];
  /** Per world, with the slow calculator. */
  slow: Record<EpisodeKind, { steps: number; stepMs: number; samplingShare: number }>;
}

const WORDS: Record<EpisodeKind, string> = { 'one-call': 'one call', 'two-calls': 'two calls', 'three-calls': 'three calls' };

const share = (r: GrpoRecord): number => {
  const { sampling, update, evaluation } = r.timeSplit;
  return sampling / (sampling + update + evaluation);
};

async function grpoSteps(episode: EpisodeKind, steps: number, toolLatencyMs: ToolLatency, faulty: boolean): Promise<WorldSteps> {
  const { records } = await runWorkshop({
    start: 'agent',
    seed: 1,
    steps,
    faulty,
    episode,
    toolLatencyMs,
  });
  const stepped = records.filter((r) => r.step >= 1);
  return { totals: stepped.map((r) => r.timings.total), samplingShares: stepped.map(share) };
}

export async function benchEpisodes(opts: { steps: number; pairs: number; toolLatencyMs: ToolLatency; faulty: boolean }): Promise<EpisodesBench> {
  await setNodeBackend('wasm');
  const all = Object.fromEntries(
    EPISODES.map((e): [EpisodeKind, WorldSteps] => [e, { totals: [], samplingShares: [] }]),
  ) as Record<EpisodeKind, WorldSteps>;
  const toOneCall = (ms: Record<EpisodeKind, number>) =>
    Object.fromEntries(EPISODES.map((e) => [e, ms[e] / ms['one-call']])) as Record<EpisodeKind, number>;
  const pairRatios: Record<EpisodeKind, number>[] = [];
  for (let p = 0; p < opts.pairs; p++) {
    const order = p % 2 === 0 ? EPISODES : [...EPISODES].reverse();
    const pair: Partial<Record<EpisodeKind, number>> = {};
    for (const episode of order) {
      const s = await grpoSteps(episode, opts.steps, 0, opts.faulty);
      all[episode].totals.push(...s.totals);
      all[episode].samplingShares.push(...s.samplingShares);
      pair[episode] = median(s.totals);
    }
    pairRatios.push(toOneCall(pair as Record<EpisodeKind, number>));
  }
  const of = (w: WorldSteps) => ({ stepMs: median(w.totals), samplingShare: median(w.samplingShares) });
  const slowSteps = Math.min(opts.steps, 10);
  const slow = {} as EpisodesBench['slow'];
  for (const episode of EPISODES)
    slow[episode] = { steps: slowSteps, ...of(await grpoSteps(episode, slowSteps, opts.toolLatencyMs, opts.faulty)) };
  const instant = Object.fromEntries(EPISODES.map((e) => [e, of(all[e])])) as EpisodesBench['instant'];
  return {
    steps: opts.steps,
    faulty: opts.faulty,
    pairs: opts.pairs,
    toolLatencyMs: opts.toolLatencyMs,
    instant,
    ratio: toOneCall(Object.fromEntries(EPISODES.map((e) => [e, instant[e].stepMs])) as Record<EpisodeKind, number>),
    pairRatios,
    slow,
  };
}

export function episodesLines(b: EpisodesBench): string[] {
  const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
  const row = (name: string, x: { stepMs: number; samplingShare: number }) =>
    `| ${name} | ${x.stepMs.toFixed(0)} ms | ${pct(x.samplingShare)} |`;
  return [
    `GRPO from each world's shipped agent, seed 1, ${b.faulty ? 'faulty' : 'reliable'} calculator, ${b.steps} steps × ${b.pairs} interleaved pairs (Node, wasm)`,
    '| world, calculator | a step (median) | sampling’s share of a step |',
    '| --- | --- | --- |',
    ...EPISODES.map((e) => row(`${WORDS[e]}, instant`, b.instant[e])),
    ...EPISODES.map((e) => row(`${WORDS[e]}, ${b.toolLatencyMs} ms a call (${b.slow[e].steps} steps)`, b.slow[e])),
    ...EPISODES.slice(1).map(
      (e) =>
        `a ${WORDS[e].replace('calls', 'call')} step ÷ a one-call step: ${b.ratio[e].toFixed(2)}× (per round: ${b.pairRatios.map((r) => r[e].toFixed(2)).join(', ')})`,
    ),
  ];
}
