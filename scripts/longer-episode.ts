// npm run longer-episode -- [--seeds 1,2,3,4,5] [--steps 40]
// The plate's closing claims, measured: the same GRPO (the plate's credit, the exact grader) from
// each world's shipped agent, reliable and faulty, over the seeds. Prints per world and calculator
// the sampled reward (first 5 → last 5 steps), the groups that teach nothing (zero spread, and of
// them the all-fail ones), the correct first calls pushed down (and how many of those episodes held
// a lie), held-out success, sampling's share of a step; then faulty ÷ reliable reward per world
// (the cap: ~0.7 for one call, ~0.7² for two). Step times with a slow tool: npm run bench -- episodes.
import { mean } from 'd3';
import { GRPO } from '../src/config';
import { EPISODES, type EpisodeKind } from '../src/env/episode';
import { firstCallCorrect } from '../src/rl/figures';
import type { GrpoRecord } from '../src/rl/grpo';
import { intOption, main, parseOptions } from '../src/node/args';
import { setNodeBackend } from './lib/node-backend';
import { runWorkshop } from '../src/node/run-workshop';
import { median } from './bench/stats';

const { values: a } = parseOptions({
  options: { seeds: { type: 'string', default: '1,2,3,4,5' }, steps: { type: 'string' } },
});

interface Figures {
  rewardFirst5: number;
  rewardLast5: number;
  /** Mean over the run's steps. */
  meanReward: number;
  zeroSpread: number;
  allFail: number;
  pushedDown: number;
  /** The same over the groups with reward spread only (a zero-spread group pushes nothing), pooled over the steps. */
  pushedDownWithSpread: number;
  /** Of the correct first calls pushed down, the share whose episode held a lie. */
  pushedDownWithLie: number;
  heldOutStart: number;
  heldOutEnd: number;
  samplingShare: number;
}

const avg = (xs: readonly number[]): number => mean(xs) ?? NaN;

/** The share of a step's groups whose every episode failed. */
function allFailGroups(r: GrpoRecord): number {
  const size = GRPO.episodesPerSum;
  let n = 0;
  for (let g = 0; g < r.episodes.length; g += size) if (r.episodes.slice(g, g + size).every((e) => e.reward === 0)) n++;
  return n / (r.episodes.length / size);
}

function pushedDownWithSpread(steps: readonly GrpoRecord[]): number {
  const size = GRPO.episodesPerSum;
  const inSpread = steps.flatMap((r) =>
    r.episodes.filter((_, i) => {
      const group = r.episodes.slice(i - (i % size), i - (i % size) + size);
      return group.some((e) => e.reward !== group[0]!.reward);
    }),
  );
  const correct = inSpread.filter(firstCallCorrect);
  return correct.length === 0 ? 0 : correct.filter((e) => e.advantage < 0).length / correct.length;
}

function pushedDownWithLie(steps: readonly GrpoRecord[]): number {
  const down = steps.flatMap((r) => r.episodes.filter((e) => firstCallCorrect(e) && e.advantage < 0));
  return down.length === 0 ? 0 : down.filter((e) => e.results.some((x) => x.lied)).length / down.length;
}

async function figures(episode: EpisodeKind, faulty: boolean, seed: number, steps: number): Promise<Figures> {
  const r = await runWorkshop({ start: 'agent', seed, steps, faulty, episode });
  const stepped = r.records.slice(1);
  return {
    rewardFirst5: r.grpo.rewardFirst5,
    rewardLast5: r.grpo.rewardLast5,
    meanReward: avg(r.meanReward),
    zeroSpread: avg(stepped.map((s) => s.zeroSpreadGroups!)),
    allFail: avg(stepped.map(allFailGroups)),
    pushedDown: avg(stepped.map((s) => s.correctCallsPushedDown!)),
    pushedDownWithSpread: pushedDownWithSpread(stepped),
    pushedDownWithLie: pushedDownWithLie(stepped),
    heldOutStart: r.grpo.heldOutStart,
    heldOutEnd: r.grpo.heldOutEnd,
    samplingShare: median(
      stepped.map((s) => s.timeSplit.sampling / (s.timeSplit.sampling + s.timeSplit.update + s.timeSplit.evaluation)),
    ),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;

function row(episode: EpisodeKind, faulty: boolean, runs: Figures[]): string {
  const m = (k: keyof Figures) => pct(avg(runs.map((f) => f[k])));
  return (
    `| ${episode === 'one-call' ? 'one call' : 'two calls'} | ${faulty ? 'faulty' : 'reliable'} | ${m('rewardFirst5')} → ${m('rewardLast5')} | ` +
    `${m('zeroSpread')} (all fail: ${m('allFail')}) | ${m('pushedDown')} (in groups with spread: ${m('pushedDownWithSpread')}${faulty ? `; a lie in ${m('pushedDownWithLie')}` : ''}) | ` +
    `${m('heldOutStart')} → ${m('heldOutEnd')} (${runs.map((f) => pct(f.heldOutEnd)).join(' ')}) | ${m('samplingShare')} |`
  );
}

await main(async () => {
  const seeds = a.seeds!.split(',').map((s) => intOption('seeds', s, 0));
  const steps = intOption('steps', a.steps, GRPO.steps, 1);
  await setNodeBackend('wasm');
  console.log(
    `GRPO from each world's shipped agent, seeds ${seeds.join(', ')}, ${steps} steps, the plate's credit (Node, wasm)`,
  );
  console.log(
    '| world | calculator | sampled reward, first 5 → last 5 | groups whose rewards are all equal (mean per step) | correct first calls pushed down (mean per step) | held-out start → end (per seed) | sampling’s share of a step |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  const meanReward: Record<string, number[]> = {};
  for (const episode of EPISODES) {
    for (const faulty of [false, true]) {
      const runs: Figures[] = [];
      for (const seed of seeds) runs.push(await figures(episode, faulty, seed, steps));
      meanReward[`${episode}/${faulty}`] = runs.map((f) => f.meanReward);
      console.log(row(episode, faulty, runs));
    }
  }
  for (const episode of EPISODES) {
    const ratios = seeds.map((_, i) => meanReward[`${episode}/true`]![i]! / meanReward[`${episode}/false`]![i]!);
    console.log(
      `${episode}: faulty ÷ reliable mean reward over the ${steps} steps, per seed: ${ratios.map((x) => x.toFixed(2)).join(' ')} (mean ${avg(ratios).toFixed(2)})`,
    );
  }
});
