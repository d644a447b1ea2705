// npm run longer-episode -- [--seeds 1,2,3,4,5] [--steps 40]
// The plate's closing claims, measured with the agent held fixed: the shipped two-call agent
// (fine-tuned on both kinds of sums) plays one-call sums and two-call sums, the same GRPO (the
// plate's credit, the exact grader), reliable and faulty, over the seeds. One row per measure:
// each seed's figure in each world, their means, and at how many seeds the two worlds differ the
// way the plate says (the page's claims table reads the same runs from the reference file).
// Every figure is a mean over the run's steps unless its row names another window.
import { mean } from 'd3';
import { GRPO } from '../src/config';
import type { EpisodeKind } from '../src/env/episode';
import type { GrpoRecord } from '../src/rl/grpo';
import { intOption, main, parseOptions, seedsOption } from '../src/node/args';
import { setNodeBackend } from './lib/node-backend';
import { runWorkshop, type WorkshopRun } from '../src/node/run-workshop';
import { median } from './bench/stats';

const { values: a } = parseOptions({
  options: { seeds: { type: 'string', default: '1,2,3,4,5' }, steps: { type: 'string' } },
});

const avg = (xs: readonly number[]): number => mean(xs) ?? NaN;
const over = (r: WorkshopRun, k: 'allFailGroups' | 'allPassGroups' | 'correctCallsPushedDown') =>
  avg(r.records.slice(1).map((s) => s[k]!));
const samplingShare = (records: readonly GrpoRecord[]) =>
  median(
    records
      .slice(1)
      .map((s) => s.timeSplit.sampling / (s.timeSplit.sampling + s.timeSplit.update + s.timeSplit.evaluation)),
  );

interface Measure {
  what: string;
  /** The plate's way, two calls against one: more, less, or no claim. */
  way: 'more' | 'less' | null;
  /** One seed's figure from its reliable and its faulty run in one world. */
  of(reliable: WorkshopRun, faulty: WorkshopRun): number;
  ratio?: boolean;
}

const MEASURES: readonly Measure[] = [
  { what: 'sampled reward (reliable)', way: 'less', of: (r) => avg(r.meanReward) },
  { what: 'sampled reward, first 5 steps (reliable)', way: 'less', of: (r) => r.grpo.rewardFirst5 },
  { what: 'groups whose 8 episodes all failed (reliable)', way: 'more', of: (r) => over(r, 'allFailGroups') },
  { what: 'groups all 8 of which were paid (reliable)', way: null, of: (r) => over(r, 'allPassGroups') },
  { what: 'correct first calls pushed down (reliable)', way: 'more', of: (r) => over(r, 'correctCallsPushedDown') },
  { what: 'correct first calls pushed down (faulty)', way: 'more', of: (_, f) => over(f, 'correctCallsPushedDown') },
  {
    what: 'faulty ÷ reliable reward',
    way: 'less',
    of: (r, f) => avg(f.meanReward) / avg(r.meanReward),
    ratio: true,
  },
  { what: 'held-out success at the end (reliable)', way: null, of: (r) => r.grpo.heldOutEnd },
  { what: 'sampling’s share of a step, median (reliable)', way: null, of: (r) => samplingShare(r.records) },
];

const fmt = (m: Measure, x: number) => (m.ratio ? x.toFixed(2) : `${(100 * x).toFixed(1)}%`);

await main(async () => {
  const seeds = seedsOption('seeds', a.seeds!);
  const steps = intOption('steps', a.steps, GRPO.steps, 1);
  await setNodeBackend('wasm');
  const runs = async (episode: EpisodeKind, faulty: boolean) => {
    const out: WorkshopRun[] = [];
    for (const seed of seeds)
      out.push(await runWorkshop({ start: 'agent', agent: 'two-calls', episode, faulty, seed, steps }));
    return out;
  };
  const worlds = {
    'one-call': { reliable: await runs('one-call', false), faulty: await runs('one-call', true) },
    'two-calls': { reliable: await runs('two-calls', false), faulty: await runs('two-calls', true) },
  };
  console.log(
    `The shipped two-call agent on one-call and on two-call sums, seeds ${seeds.join(', ')}, ${steps} GRPO steps, the plate's settings (Node, wasm); each figure a mean over the steps unless the row says otherwise`,
  );
  console.log(
    `held-out at step 0: one call ${fmt(MEASURES[0]!, worlds['one-call'].reliable[0]!.grpo.heldOutStart)}, two calls ${fmt(MEASURES[0]!, worlds['two-calls'].reliable[0]!.grpo.heldOutStart)}`,
  );
  console.log('| measure | one call, per seed | mean | two calls, per seed | mean | seeds the plate’s way |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const m of MEASURES) {
    const per = (w: EpisodeKind) => seeds.map((_, i) => m.of(worlds[w].reliable[i]!, worlds[w].faulty[i]!));
    const [one, two] = [per('one-call'), per('two-calls')];
    const way = m.way && seeds.filter((_, i) => (m.way === 'more' ? two[i]! > one[i]! : two[i]! < one[i]!)).length;
    console.log(
      `| ${m.what} | ${one.map((x) => fmt(m, x)).join(' ')} | ${fmt(m, avg(one))} | ${two.map((x) => fmt(m, x)).join(' ')} | ${fmt(m, avg(two))} | ${m.way ? `${way} of ${seeds.length} (two calls ${m.way})` : '—'} |`,
    );
  }
});
