// npx tsx scripts/push-alignment.ts [--seeds 1-5] [--steps 40] [--faulty] [--masking on|off]
//                                   [--advantage group|raw] [--sums-per-step 8] [--json]
// The plate's lede, checked: over GRPO steps from the shipped agent, how often the update pushed
// the way the advantages say — Σ_i A_i · (mean Δ log p over episode i's model characters) > 0 —
// over each step's whole batch and over each group on its own (groups whose advantages are all 0
// left out: they carry no push). Where a group fails, it prints what else was true of that step:
// Adam's first step has no moments from earlier steps, so failures there come from the other
// groups alone. Figures, not a test (test/rl/push.test.ts asserts a smaller run).
import { parseArgs } from 'node:util';
import { GRPO } from '../src/config';
import { ADVANTAGES } from '../src/pipeline/stages';
import { alignment, groupAlignments, modelChars, type PushedEpisode } from '../src/rl/push';
import type { GrpoRecord } from '../src/rl/grpo';
import { intOption, main, oneOf } from './args';
import { useBackend } from './backend';
import { runWorkshop } from './run-workshop';

const { values: a } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1-5' },
    steps: { type: 'string' },
    faulty: { type: 'boolean', default: false },
    masking: { type: 'string' },
    advantage: { type: 'string' },
    'sums-per-step': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

interface AlignmentCounts {
  steps: number;
  batchHolds: number;
  /** Groups with a non-zero advantage somewhere. */
  groups: number;
  groupHolds: number;
  /** Of those, on each run's step 1 (Adam without moments from earlier steps). */
  firstStepGroups: number;
  firstStepGroupHolds: number;
}

/** Counts over one run's records (steps ≥ 1). */
function countAlignment(records: readonly GrpoRecord[], groupSize: number, into: AlignmentCounts): void {
  for (const r of records.filter((x) => x.step > 0)) {
    const pushed: PushedEpisode[] = r.episodes.map((e) => ({ advantage: e.advantage, logp: e.logp, chars: modelChars(e.authors) }));
    into.steps++;
    if (alignment(pushed) > 0) into.batchHolds++;
    groupAlignments(pushed, groupSize).forEach((score, g) => {
      if (pushed.slice(g * groupSize, (g + 1) * groupSize).every((e) => e.advantage === 0)) return;
      into.groups++;
      if (score > 0) into.groupHolds++;
      if (r.step === 1) {
        into.firstStepGroups++;
        if (score > 0) into.firstStepGroupHolds++;
      }
    });
  }
}

const range = (spec: string): number[] => {
  const [lo, hi] = spec.split('-').map(Number);
  return Array.from({ length: (hi ?? lo!) - lo! + 1 }, (_, i) => lo! + i);
};

await main(async () => {
  await useBackend('wasm');
  const steps = intOption('steps', a.steps, GRPO.steps, 1);
  const masking = oneOf('masking', a.masking, ['on', 'off'] as const, 'on') === 'on';
  const advantage = oneOf('advantage', a.advantage, ADVANTAGES, 'group');
  const grpo = { ...GRPO, sumsPerStep: intOption('sums-per-step', a['sums-per-step'], GRPO.sumsPerStep, 1) };
  const counts: AlignmentCounts = { steps: 0, batchHolds: 0, groups: 0, groupHolds: 0, firstStepGroups: 0, firstStepGroupHolds: 0 };
  const seeds = range(a.seeds!);
  for (const seed of seeds) {
    const { records } = await runWorkshop({ start: 'agent', seed, steps, faulty: a.faulty!, masking, advantage, grpo });
    countAlignment(records, grpo.episodesPerSum, counts);
    console.log(`seed ${seed}: batch ${counts.batchHolds}/${counts.steps}, groups ${counts.groupHolds}/${counts.groups} so far`);
  }
  const pct = (n: number, d: number) => `${n}/${d} (${d ? ((100 * n) / d).toFixed(1) : '—'}%)`;
  console.log(
    `seeds ${a.seeds}, ${steps} steps, ${grpo.sumsPerStep} sums per step, ${a.faulty ? 'faulty' : 'reliable'}, masking ${masking ? 'on' : 'off'}, ${advantage} advantage: ` +
      `the batch was pushed the advantages' way on ${pct(counts.batchHolds, counts.steps)} steps; a group with a signal on ${pct(counts.groupHolds, counts.groups)} ` +
      `(on step 1, before Adam has moments: ${pct(counts.firstStepGroupHolds, counts.firstStepGroups)})`,
  );
  if (a.json) console.log(JSON.stringify({ seeds: a.seeds, stepsPerRun: steps, sumsPerStep: grpo.sumsPerStep, faulty: a.faulty, masking, advantage, ...counts }));
});
