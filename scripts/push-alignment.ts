// npm run push-alignment -- [--seeds 1-5] [--steps 40] [--sums-per-step 8] [--json]
//                          [--episode one-call|two-calls|three-calls] [--agent own|one-call|three-calls]
//                          [--start agent|pretrained|scratch] [--faulty] [--masking on|off] [--advantage group|raw]
//                          [--temperature 0.5|1|1.5] [--grader exact|crash-pass|trusts-tool] [--updates-per-batch 1|2|4]
//                          [--tool-latency-ms 0|50|200]   (the reader's settings, as npm run workshop takes them)
// The plate's lede, checked: over GRPO steps from the shipped agent, how often the update pushed
// the way the advantages say, over each step's whole batch and over each group on its own
// (steps and groups whose advantages are all 0 left out: they carry no push). Two measures:
//  - the lede as the plate puts it: Σ_i A_i · (mean Δ log p over episode i's model characters);
//  - the objective's own first-order change: Σ_i A_i · (Σ Δ log p over the characters the loss
//    covers), which differs with masking off (the calculator's characters count) and weighs
//    long episodes more.
// Also on each run's step 1, where Adam has no moments from earlier steps yet: a group that fails
// there fails because of the other groups alone. Figures, not a test (test/rl/push.test.ts).
import { GRPO, type LossMask } from '../src/config';
import type { Author } from '../src/env/episode';
import { grpoConfigOf, PLATE_SETTINGS, settingsLabel, type RunSettings } from '../src/pipeline/settings';
import { trainedOn } from '../src/rl/credit';
import type { GrpoRecord } from '../src/rl/grpo';
import { alignment, groupAlignments, logpChange, modelChars, type PushedEpisode } from '../src/rl/push';
import { intOption, main, parseOptions, seedsOption } from '../src/node/args';
import { setNodeBackend } from './lib/node-backend';
import { runWorkshop } from '../src/node/run-workshop';
import { SETTING_OPTIONS, settingsGiven } from './lib/setting-options';

const { values: a } = parseOptions({
  options: {
    seeds: { type: 'string', default: '1-5' },
    steps: { type: 'string' },
    ...SETTING_OPTIONS,
    'sums-per-step': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

interface Tally {
  n: number;
  holds: number;
}
const tally = (): Tally => ({ n: 0, holds: 0 });
const add = (t: Tally, score: number) => {
  t.n++;
  if (score > 0) t.holds++;
};

interface Counts {
  /** The lede (model characters, mean per episode): batches, groups, groups on step 1. */
  lede: { batch: Tally; group: Tally; firstStepGroup: Tally };
  /** The objective's first-order change (trained characters, summed). */
  objective: { batch: Tally; group: Tally };
}

/** Σ_i A_i · Σ Δ log p over the characters the loss covers. */
function objectiveChange(episodes: GrpoRecord['episodes'], mask: LossMask): number {
  return episodes.reduce((s, e) => {
    if (e.advantage === 0) return s;
    let d = 0;
    e.authors.forEach((author: Author, i) => {
      if (i > 0 && trainedOn(author, mask)) d += logpChange(e.logp, i);
    });
    return s + e.advantage * d;
  }, 0);
}

function count(records: readonly GrpoRecord[], groupSize: number, mask: LossMask, into: Counts, seed: number): void {
  for (const r of records.filter((x) => x.step > 0)) {
    if (r.episodes.every((e) => e.advantage === 0)) continue;
    const pushed: PushedEpisode[] = r.episodes.map((e) => ({
      advantage: e.advantage,
      logp: e.logp,
      chars: modelChars(e.authors),
    }));
    const [lede, objective] = [alignment(pushed), objectiveChange(r.episodes, mask)];
    add(into.lede.batch, lede);
    add(into.objective.batch, objective);
    if (lede <= 0 || objective <= 0)
      console.log(
        `  seed ${seed} step ${r.step}: the batch's lede ${lede.toFixed(4)}, its objective's first-order change ${objective.toFixed(4)}`,
      );
    groupAlignments(pushed, groupSize).forEach((score, k) => {
      const eps = r.episodes.slice(k * groupSize, (k + 1) * groupSize);
      if (eps.every((e) => e.advantage === 0)) return;
      add(into.lede.group, score);
      if (r.step === 1) add(into.lede.firstStepGroup, score);
      add(into.objective.group, objectiveChange(eps, mask));
    });
  }
}

const pct = (t: Tally) => `${t.holds}/${t.n} (${t.n ? ((100 * t.holds) / t.n).toFixed(1) : '—'}%)`;

await main(async () => {
  await setNodeBackend('wasm');
  const steps = intOption('steps', a.steps, GRPO.steps, 1);
  const settings: RunSettings = { ...PLATE_SETTINGS, ...settingsGiven(a) };
  const grpo = { ...GRPO, sumsPerStep: intOption('sums-per-step', a['sums-per-step'], GRPO.sumsPerStep, 1) };
  const counts: Counts = {
    lede: { batch: tally(), group: tally(), firstStepGroup: tally() },
    objective: { batch: tally(), group: tally() },
  };
  for (const seed of seedsOption('seeds', a.seeds!)) {
    const { records } = await runWorkshop({ ...settings, seed, steps, grpo });
    count(records, grpo.episodesPerSum, grpoConfigOf(grpo, { ...settings, seed, steps }).lossMask, counts, seed);
    console.log(`seed ${seed}: lede batch ${pct(counts.lede.batch)}, groups ${pct(counts.lede.group)} so far`);
  }
  console.log(
    `seeds ${a.seeds}, ${steps} steps, ${grpo.sumsPerStep} sums per step, ${settingsLabel(settings)}:\n` +
      `  the lede (model characters, mean per episode): batch ${pct(counts.lede.batch)}, groups ${pct(counts.lede.group)}, groups on step 1 ${pct(counts.lede.firstStepGroup)}\n` +
      `  the objective's first-order change (trained characters, summed): batch ${pct(counts.objective.batch)}, groups ${pct(counts.objective.group)}`,
  );
  if (a.json)
    console.log(
      JSON.stringify({
        seeds: a.seeds,
        stepsPerRun: steps,
        sumsPerStep: grpo.sumsPerStep,
        ...settings,
        ...counts,
      }),
    );
});
