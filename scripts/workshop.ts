// npm run workshop -- [--start agent|pretrained|scratch] [--faulty] [--masking on|off]
//                     [--advantage group|raw] [--temperature 0.5|1|1.5] [--seed N] [--steps 40]
//                     [--backend wasm|cpu] [--checkpoint DIR] [--pretrained DIR] [--json]
//                     [--pretrain-steps N] [--sft-steps N]   (shorter stages, for quick checks)
// The plate's pipeline, headless: from the shipped agent (default), or fine-tuning the shipped
// worksheet model first, or pre-training from random weights first — then GRPO. One line per
// GRPO step (and every 25 supervised steps), then the readouts. With --json the last line is one
// JSON object with the whole run.
import { parseArgs } from 'node:util';
import { AGENT_RECIPE, GRPO, type AgentRecipe } from '../src/config';
import { ADVANTAGES, STARTS, TEMPERATURES, type Temperature } from '../src/pipeline/stages';
import { intOption, main, oneOf } from './args';
import { useBackend } from './backend';
import { SHIPPED } from './checkpoint-fs';
import { runWorkshop } from './run-workshop';

const { values: a } = parseArgs({
  options: {
    start: { type: 'string' },
    faulty: { type: 'boolean', default: false },
    masking: { type: 'string' },
    advantage: { type: 'string' },
    temperature: { type: 'string' },
    seed: { type: 'string' },
    steps: { type: 'string' },
    backend: { type: 'string' },
    checkpoint: { type: 'string', default: SHIPPED.agent },
    pretrained: { type: 'string', default: SHIPPED.pretrained },
    json: { type: 'boolean', default: false },
    'pretrain-steps': { type: 'string' },
    'sft-steps': { type: 'string' },
  },
});

await main(async () => {
  const start = oneOf('start', a.start, STARTS, 'agent');
  const masking = oneOf('masking', a.masking, ['on', 'off'] as const, 'on');
  const advantage = oneOf('advantage', a.advantage, ADVANTAGES, 'group');
  const temperature = Number(oneOf('temperature', a.temperature, TEMPERATURES.map(String), '1')) as Temperature;
  const seed = intOption('seed', a.seed, 1);
  const steps = intOption('steps', a.steps, GRPO.steps, 1);
  const backend = await useBackend(oneOf('backend', a.backend, ['wasm', 'cpu'] as const, 'wasm'));
  const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
  console.log(
    `workshop: from the ${start === 'agent' ? 'fine-tuned agent' : start === 'pretrained' ? 'worksheet model' : 'random weights'}, ${a.faulty ? 'faulty' : 'reliable'} calculator, ` +
      `masking ${masking}, ${advantage === 'group' ? 'group-relative' : 'raw-reward'} advantage, temperature ${temperature}, seed ${seed}, ${steps} steps, backend ${backend}`,
  );
  const r0 = AGENT_RECIPE;
  const recipe: AgentRecipe = {
    ...r0,
    pretrain: { ...r0.pretrain, steps: intOption('pretrain-steps', a['pretrain-steps'], r0.pretrain.steps, 1) },
    sft: { ...r0.sft, steps: intOption('sft-steps', a['sft-steps'], r0.sft.steps, 1) },
  };
  const checkpoints = { agent: a.checkpoint!, pretrained: a.pretrained! };
  const settings = { faulty: a.faulty!, masking: masking === 'on', advantage, temperature };
  const run = await runWorkshop({ start, seed, steps, checkpoints, recipe, ...settings }, ({ stage, record: r }) => {
    if (stage !== 'grpo') {
      const score = r.heldOut ? `  held-out ${pct(r.heldOut.success)}` : r.worksheet ? `  single-digit sums ${pct(r.worksheet.success)}` : '';
      if (r.step % 25 === 0 || r.step === r.steps) console.log(`${stage} ${String(r.step).padStart(3)}/${r.steps}${r.loss === null ? '' : `  loss ${r.loss.toFixed(3)}`}${score}`);
      return;
    }
    const t = r.timings;
    console.log(
      `step ${String(r.step).padStart(2)}  held-out ${pct(r.heldOut).padStart(4)}` +
        (r.meanReward === null
          ? ''
          : `  reward ${pct(r.meanReward).padStart(4)}  zero-spread ${pct(r.zeroSpreadGroups!).padStart(4)}  clip ${r.clipFraction!.toFixed(2)}  lies ${r.lies}/${r.calls}  copies ${r.copied}  malformed ${r.malformed}`) +
        `  ${t.total.toFixed(0)} ms (sample ${t.sample.toFixed(0)}, grad ${t.gradient.toFixed(0)}, eval ${t.evaluate.toFixed(0)})`,
    );
  });
  const g = run.grpo;
  const summary = { start, faulty: a.faulty!, masking, advantage, temperature, seed, steps, backend, ...g, heldOut: run.heldOut, meanReward: run.meanReward, sftHeldOut: run.sftHeldOut, agentDigest: run.agentDigest, stageSeconds: run.seconds };
  const sft = run.sftHeldOut === null ? '' : `fine-tuned agent ${pct(run.sftHeldOut)} held-out; `;
  const perStage = Object.entries(run.seconds).map(([s, sec]) => `${s} ${sec!.toFixed(1)} s`).join(', ');
  console.log(`${sft}held-out ${pct(g.heldOutStart)} → ${pct(g.heldOutEnd)}; mean reward, last 5 steps ${pct(g.rewardLast5)} (first 5: ${pct(g.rewardFirst5)}); ${perStage}`);
  if (a.json) console.log(JSON.stringify(summary));
});
