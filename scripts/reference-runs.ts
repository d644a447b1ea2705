// npm run reference-runs -- [--seeds 1,2,3,4,5] [--steps 40] [--checkpoint DIR] [--out FILE]
// Runs the workshop headless for several seeds, reliable and faulty, prints the plate's table
// and writes the curves to public/reference-runs.json: the page draws them, labelled as
// precomputed, under the reader's live run.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { GRPO } from '../src/config';
import { intOption } from './args';
import { useBackend } from './backend';
import { SHIPPED } from './checkpoint-fs';
import { runWorkshop } from './run-workshop';

const { values: a } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1,2,3,4,5' },
    steps: { type: 'string' },
    checkpoint: { type: 'string', default: SHIPPED.agent },
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
    const { grpo: s, heldOut, meanReward } = await runWorkshop({ start: 'agent', faulty, seed, steps, checkpoints: { ...SHIPPED, agent: a.checkpoint! } });
    console.log(`${faulty ? 'faulty  ' : 'reliable'}    ${String(seed).padStart(4)}  ${pct(s.heldOutStart)} → ${pct(s.heldOutEnd)}            ${pct(s.rewardFirst5)} → ${pct(s.rewardLast5)}          ${s.seconds.toFixed(1)}`);
    runs.push({
      seed,
      faulty,
      heldOut: heldOut.map(round),
      meanReward: meanReward.map(round),
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
