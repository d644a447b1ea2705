// `npm run longer-episode -- --scale [--json]`: the scale model (src/rl/scale.ts) from the shipped
// three-call agent's reference runs, no training: q and its interval, the check at three calls,
// and the model's figures at a few call counts up to 300 (--json: every count, one line).
import { readFileSync } from 'node:fs';
import { SETTINGS } from '../../src/pipeline/settings';
import { meanOf } from '../../src/rl/claims';
import { scaleReport, type ScaleReport, type ScaleRun } from '../../src/rl/scale';
import { samplingMsPerCall } from '../../src/rl/scale-time';
import { fail } from '../../src/node/args';

/** The file the page draws the claims from. */
const FILE = 'public/reference-runs-three-calls.json';
/** The plate's "hundreds of turns". */
const MAX_CALLS = 300;
/** The rows of the readable table. */
const SHOWN = [1, 2, 3, 5, 10, 20, 50, 100, 200, 300];

/** Five significant digits: 0.7³⁰⁰ stays 3.4e-47, not 0. */
const r5 = (x: number) => Number(x.toPrecision(5));
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The report as the JSON line has it: the issue's fields and what was measured, every number to five digits. */
function jsonOf(r: ScaleReport) {
  const round = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, r5(v)]));
  const t = r.model.time;
  return {
    file: FILE,
    measured: r.lengths.map((l) => ({
      calls: l.calls,
      seeds: l.seeds,
      ...round({
        reward: meanOf(l.reward),
        allFail: meanOf(l.allFail),
        allPass: meanOf(l.allPass),
        pushedDown: meanOf(l.pushedDown),
        faultyRatio: meanOf(l.faultyRatio),
        samplingShare: meanOf(l.samplingShare),
      }),
    })),
    perCallSuccess: round({ ...r.perCallSuccess }),
    heldOutCheck: {
      calls: r.heldOutCheck.calls,
      predicted: round(r.heldOutCheck.predicted),
      measured: round(r.heldOutCheck.measured),
      se: round(r.heldOutCheck.se),
      holds: r.heldOutCheck.holds,
    },
    time: {
      samplingMsPerCall: r5(samplingMsPerCall(t)),
      batchMsPerChar: r5(t.batchMsPerChar),
      updateMsPerChar: r5(t.updateMsPerChar),
      episodeChars: { fixed: r5(t.episodeChars.fixed), perCall: r5(t.episodeChars.per) },
    },
    predictions: r.predictions.map(({ samplingShare, ...p }) => ({
      ...round({ ...p }),
      samplingShare: round(samplingShare),
    })),
    halfAllFailAt: r.halfAllFailAt,
  };
}

function printTable(r: ScaleReport, latencies: readonly number[]): void {
  const { q, lo, hi } = r.perCallSuccess;
  const h = r.heldOutCheck;
  const t = r.model.time;
  console.log(
    `The scale model (src/rl/scale.ts) from ${FILE}: the three-call agent, the plate's settings, seeds ${r.lengths[0]!.seeds.join(', ')}`,
  );
  console.log(
    `measured (means over the seeds of each run's 40-step mean): ${r.lengths.map((l) => `${l.calls} call${l.calls > 1 ? 's' : ''}: reward ${pct(meanOf(l.reward))}, all-fail ${pct(meanOf(l.allFail))}, pushed down ${pct(meanOf(l.pushedDown))}, sampling ${pct(meanOf(l.samplingShare))}`).join('; ')}`,
  );
  console.log(
    `per-call success q = ${q.toFixed(4)} (95% over the seeds: ${lo.toFixed(4)}–${hi.toFixed(4)}); difficulty read at ${r.model.anchorCalls} calls`,
  );
  console.log(
    `held out: fitted on ${r.lengths
      .slice(0, -1)
      .map((l) => l.calls)
      .join(
        ' and ',
      )} calls, at ${h.calls} it predicts reward ${pct(h.predicted.reward)} and all-fail ${pct(h.predicted.allFail)}; measured ${pct(h.measured.reward)} ± ${pct(h.se.reward)} and ${pct(h.measured.allFail)} ± ${pct(h.se.allFail)} (se): ${h.holds ? 'holds' : 'does not hold'} (within two standard errors)`,
  );
  console.log(
    `time (medians of the runs' own rates, each run's figures medians over its steps): the batch ${t.batchMsPerChar.toFixed(2)} ms a character position, ${samplingMsPerCall(t).toFixed(1)} ms a call (${t.episodeChars.per.toFixed(1)} characters a call, ${t.episodeChars.fixed.toFixed(1)} besides); the update ${(1000 * t.updateMsPerChar).toFixed(1)} µs a character it runs`,
  );
  console.log(
    `all-fail groups pass half: ${r.halfAllFailAt === null ? `not by ${MAX_CALLS} calls` : `at ${r.halfAllFailAt} calls`}`,
  );
  console.log(
    `| calls | reward | all-fail | all-pass | pushed down | faulty ÷ reliable | ${latencies.map((ms) => `sampling, ${ms} ms a call`).join(' | ')} |`,
  );
  console.log(`| --- | --- | --- | --- | --- | --- |${' --- |'.repeat(latencies.length)}`);
  for (const p of r.predictions.filter((p) => SHOWN.includes(p.calls)))
    console.log(
      `| ${p.calls} | ${pct(p.reward)} | ${pct(p.allFail)} | ${pct(p.allPass)} | ${pct(p.pushedDown)} | ${p.faultyRatio.toPrecision(2)} | ${latencies.map((ms) => pct(p.samplingShare[ms]!)).join(' | ')} |`,
    );
  console.log('(a model: each added call right with probability q, independently; see src/rl/scale.ts)');
}

/** Reads the shipped file and prints the model; exits with one line if the file cannot feed it. */
export function printScale(json: boolean): void {
  const runs = (JSON.parse(readFileSync(FILE, 'utf8')) as { runs: ScaleRun[] }).runs;
  const latencies = SETTINGS.toolLatencyMs.choices;
  const report = scaleReport(runs, { latencies, maxCalls: MAX_CALLS });
  if (!report)
    fail(
      `${FILE} lacks the paid counts and time splits the model reads: re-make it with npm run reference-runs -- --agent three-calls`,
    );
  if (json) console.log(JSON.stringify(jsonOf(report)));
  else printTable(report, latencies);
}
