// npm run workshop -- [--faulty] [--seed N] [--steps 40] [--backend wasm|cpu] [--checkpoint DIR] [--json]
// The plate's workshop, headless: GRPO from the shipped agent checkpoint, one line per step,
// then the readouts. With --json the last line is one JSON object with the whole run.
import { parseArgs } from 'node:util';
import { GRPO } from '../src/config';
import { intOption, oneOf } from './args';
import { useBackend } from './backend';
import { runWorkshop } from './run-workshop';

const { values: a } = parseArgs({
  options: {
    faulty: { type: 'boolean', default: false },
    seed: { type: 'string' },
    steps: { type: 'string' },
    backend: { type: 'string' },
    checkpoint: { type: 'string', default: 'public/checkpoints/agent' },
    json: { type: 'boolean', default: false },
  },
});
const seed = intOption('seed', a.seed, 1);
const steps = intOption('steps', a.steps, GRPO.steps, 1);
const backend = await useBackend(oneOf('backend', a.backend, ['wasm', 'cpu'] as const, 'wasm'));

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
console.log(`workshop: ${a.faulty ? 'faulty' : 'reliable'} calculator, seed ${seed}, ${steps} steps, backend ${backend}`);
const run = await runWorkshop(a.checkpoint!, { faulty: a.faulty!, seed, steps }, (r) => {
  const t = r.timings;
  console.log(
    `step ${String(r.step).padStart(2)}  held-out ${pct(r.heldOut).padStart(4)}` +
      (r.meanReward === null ? '' : `  reward ${pct(r.meanReward).padStart(4)}  zero-spread ${pct(r.zeroSpreadGroups!).padStart(4)}  clip ${r.clipFraction!.toFixed(2)}  lies ${r.lies}/${r.calls}`) +
      `  ${t.total.toFixed(0)} ms (sample ${t.sample.toFixed(0)}, grad ${t.gradient.toFixed(0)}, eval ${t.evaluate.toFixed(0)})`,
  );
});
const summary = { faulty: a.faulty!, seed, steps, backend, ...run.summary, heldOut: run.heldOut, meanReward: run.meanReward };
console.log(`held-out ${pct(summary.heldOutStart)} → ${pct(summary.heldOutEnd)}; mean reward, last 5 steps ${pct(summary.rewardLast5)} (first 5: ${pct(summary.rewardFirst5)}); ${summary.seconds.toFixed(1)} s`);
if (a.json) console.log(JSON.stringify(summary));
