// npm run reference-runs -- [--seeds 1,2,3,4,5] [--steps 40] [--checkpoint DIR] [--out FILE]
// Runs the workshop headless for several seeds, reliable and faulty, prints the plate's table
// and writes the curves to public/reference-runs.json: the page draws them, labelled as
// precomputed, under the reader's live run.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { GRPO } from '../src/config';
import { summarise } from '../src/rl/summary';
import { GrpoTrainer, type StepRecord } from '../src/rl/trainer';
import { fail, intOption } from './args';
import { useBackend } from './backend';
import { loadCheckpoint } from './checkpoint-fs';

const { values: a } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1,2,3,4,5' },
    steps: { type: 'string' },
    checkpoint: { type: 'string', default: 'public/checkpoints/agent' },
    out: { type: 'string', default: 'public/reference-runs.json' },
  },
});
const seeds = a.seeds!.split(',').map((s) => intOption('seeds', s, 0));
const steps = intOption('steps', a.steps, GRPO.steps, 1);
const backend = await useBackend('wasm');
const pct = (x: number) => `${(100 * x).toFixed(0)}%`.padStart(4);
const round = (x: number) => Math.round(x * 1e4) / 1e4;

const runs = [];
console.log('calculator  seed  held-out start → end  reward first5 → last5   seconds');
for (const faulty of [false, true]) {
  for (const seed of seeds) {
    let loaded;
    try {
      loaded = loadCheckpoint(a.checkpoint!);
    } catch (e) {
      fail((e as Error).message);
    }
    const trainer = new GrpoTrainer({ model: loaded.model, config: GRPO, faulty, seed });
    const records: StepRecord[] = [];
    const t0 = performance.now();
    for await (const r of trainer.run(steps)) records.push(r);
    const s = summarise(records, (performance.now() - t0) / 1000);
    trainer.dispose();
    loaded.model.dispose();
    console.log(`${faulty ? 'faulty  ' : 'reliable'}    ${String(seed).padStart(4)}  ${pct(s.heldOutStart)} → ${pct(s.heldOutEnd)}            ${pct(s.rewardFirst5)} → ${pct(s.rewardLast5)}          ${s.seconds.toFixed(1)}`);
    runs.push({
      seed,
      faulty,
      heldOut: records.map((r) => round(r.heldOut)),
      meanReward: records.flatMap((r) => (r.meanReward === null ? [] : [round(r.meanReward)])),
      summary: { ...s, seconds: round(s.seconds) },
    });
  }
}
writeFileSync(
  a.out!,
  JSON.stringify({
    note: 'Precomputed reference runs of the workshop (scripts/reference-runs.ts, Node, wasm backend) from the shipped agent checkpoint. Not live.',
    checkpoint: a.checkpoint,
    backend,
    steps,
    runs,
  }) + '\n',
);
console.log(`wrote ${a.out}`);
