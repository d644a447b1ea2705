// npm run longer-episode -- [--calls 1,2,3] [--seeds 1,2,3,4,5] [--steps 40] [--json]
// npm run longer-episode -- --scale [--json]
// The plate's closing claims, measured with the agent held fixed: the shipped three-call agent
// (fine-tuned on one-, two- and three-call sums) plays each number of calls, the same GRPO (the
// plate's credit, the exact grader), reliable and faulty, over the seeds. One row per measure: each
// seed's figure at each number of calls, their means, and the verdict on the claim's trend
// (src/rl/claims.ts: grows, grows then flattens, does not grow — "grows" meaning the figure moves
// the plate's way; a step within the seeds' standard error is flat). Every figure is a mean over
// the run's steps unless its row names another window. With --json the last line is one object:
// `claims: [{ name, what, way, values: [v1, v2, …], perSeed, verdict }]`, then the rows beside them.
// --scale trains nothing: it fits the scale model (src/rl/scale.ts) to the shipped three-call
// agent's reference runs and carries the claims to 300 calls (scripts/lib/scale-print.ts): per-call
// success q and its interval, the check at three calls of a fit on one and two, and the model's
// figures at some call counts; with --json one line instead: measured (the means at each length),
// perCallSuccess {q, lo, hi}, heldOutCheck {calls, predicted, measured, se, holds}, time (the
// fitted times), predictions (one per call count 1..300: calls, reward, allFail, allPass,
// pushedDown, faultyRatio, samplingShare by the calculator's latency in ms) and halfAllFailAt
// (null if all-fail groups stay under half). --calls, --seeds and --steps do not apply to it.
import { GRPO } from '../src/config';
import { EPISODES, type EpisodeKind } from '../src/env/episode';
import { callsWords, WORLDS } from '../src/env/world';
import type { GrpoRecord } from '../src/rl/grpo';
import {
  CLAIMS,
  claimFigure,
  claimTrend,
  claimVerdict,
  meanOf,
  type ClaimWay,
  type StepCurves,
  type Verdict,
} from '../src/rl/claims';
import { fail, intOption, main, parseOptions, seedsOption } from '../src/node/args';
import { setNodeBackend } from './lib/node-backend';
import { runWorkshop, type WorkshopRun } from '../src/node/run-workshop';
import { median } from './bench/stats';
import { printScale } from './lib/scale-print';

const { values: a } = parseOptions({
  options: {
    calls: { type: 'string', default: '1,2,3' },
    seeds: { type: 'string', default: '1,2,3,4,5' },
    steps: { type: 'string' },
    json: { type: 'boolean', default: false },
    scale: { type: 'boolean', default: false },
  },
});

/** A run's per-step curves, as a reference file keeps them (steps 1..n). */
const curvesOf = (r: WorkshopRun): StepCurves => {
  const grpo = r.records.slice(1);
  const per = (k: 'allFailGroups' | 'allPassGroups' | 'correctCallsPushedDown') => grpo.map((s) => s[k]!);
  return {
    meanReward: r.meanReward,
    allFailGroups: per('allFailGroups'),
    allPassGroups: per('allPassGroups'),
    correctCallsPushedDown: per('correctCallsPushedDown'),
  };
};

const samplingShare = (records: readonly GrpoRecord[]) =>
  median(
    records
      .slice(1)
      .map((s) => s.timeSplit.sampling / (s.timeSplit.sampling + s.timeSplit.update + s.timeSplit.evaluation)),
  );

/** The rows beside the claims: a window of the reward the plate's claim also speaks of, and what a run ends at. */
const BESIDE: readonly { what: string; way: ClaimWay | null; of(r: WorkshopRun): number }[] = [
  { what: 'sampled reward, first 5 steps (reliable)', way: 'down', of: (r) => r.grpo.rewardFirst5 },
  { what: 'held-out success at the end (reliable)', way: null, of: (r) => r.grpo.heldOutEnd },
  { what: 'sampling’s share of a step, median (reliable)', way: null, of: (r) => samplingShare(r.records) },
];

/** --calls 1,2,3: the worlds, fewest calls first. */
function worldsOf(text: string): EpisodeKind[] {
  const calls = seedsOption('calls', text);
  const worlds = EPISODES.filter((e) => calls.includes(WORLDS[e].calls));
  if (worlds.length !== calls.length || worlds.length < 2)
    fail(
      `--calls must name two or more of ${EPISODES.map((e) => WORLDS[e].calls).join(', ')}, got ${JSON.stringify(text)}`,
    );
  return worlds;
}

/** --scale: the model from the shipped reference runs, which fix the lengths, seeds and steps. */
function scaleOnly(): void {
  if (process.argv.some((x) => /^--(calls|seeds|steps)\b/.test(x)))
    fail(
      '--scale reads the shipped reference runs (seeds 1–5, 40 steps, one to three calls): --calls, --seeds and --steps do not apply',
    );
  printScale(a.json!);
}

await main(async () => {
  if (a.scale) return scaleOnly();
  const worlds = worldsOf(a.calls!);
  const seeds = seedsOption('seeds', a.seeds!);
  const steps = intOption('steps', a.steps, GRPO.steps, 1);
  await setNodeBackend('wasm');
  const runs = async (episode: EpisodeKind, faulty: boolean) => {
    const out: WorkshopRun[] = [];
    for (const seed of seeds)
      out.push(await runWorkshop({ start: 'agent', agent: 'three-calls', episode, faulty, seed, steps }));
    return out;
  };
  const played: { reliable: WorkshopRun[]; faulty: WorkshopRun[] }[] = [];
  for (const w of worlds) played.push({ reliable: await runs(w, false), faulty: await runs(w, true) });
  const words = worlds.map(callsWords);
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  console.log(
    `The shipped three-call agent at ${words.join(', ')}, seeds ${seeds.join(', ')}, ${steps} GRPO steps, the plate's settings (Node, wasm); each figure a mean over the steps unless the row says otherwise`,
  );
  console.log(
    `held-out at step 0: ${worlds.map((_, i) => `${words[i]} ${pct(played[i]!.reliable[0]!.grpo.heldOutStart)}`).join(', ')}`,
  );
  console.log(
    `| measure | ${words.map((w) => `${w}, per seed | mean`).join(' | ')} | the plate’s way | verdict (a step within the seeds’ standard error is flat) |`,
  );
  console.log(`| --- |${' --- | --- |'.repeat(worlds.length)} --- | --- |`);
  const row = (
    what: string,
    perSeed: number[][],
    fmt: (x: number) => string,
    way: ClaimWay | null,
    verdict: Verdict | null,
  ) =>
    console.log(
      `| ${what} | ${perSeed.map((xs) => `${xs.map(fmt).join(' ')} | ${fmt(meanOf(xs))}`).join(' | ')} | ${way === 'up' ? 'more' : way === 'down' ? 'less' : '—'} | ${verdict ?? '— (no claim)'} |`,
    );
  const claims = CLAIMS.map((c) => {
    const perSeed = played.map((p) =>
      seeds.map((_, i) => claimFigure(c, { reliable: curvesOf(p.reliable[i]!), faulty: curvesOf(p.faulty[i]!) })!),
    );
    const { values, verdict } = claimTrend(c, perSeed);
    row(c.what, perSeed, c.name === 'faultyCap' ? (x) => x.toFixed(2) : pct, c.way, verdict);
    return { name: c.name, what: c.what, way: c.way, values, perSeed, verdict };
  });
  const beside = BESIDE.map((b) => {
    const perSeed = played.map((p) => p.reliable.map(b.of));
    const verdict = b.way && claimVerdict(b.way, perSeed);
    row(b.what, perSeed, pct, b.way, verdict);
    return { what: b.what, way: b.way, values: perSeed.map(meanOf), perSeed, verdict };
  });
  const reference = worlds.map((w) => 0.7 ** WORLDS[w].calls);
  console.log(`(0.7 to the calls: ${reference.map((x) => x.toFixed(2)).join(', ')})`);
  if (a.json)
    console.log(
      JSON.stringify({ agent: 'three-calls', calls: worlds.map((w) => WORLDS[w].calls), seeds, steps, claims, beside }),
    );
});
