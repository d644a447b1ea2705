/**
 * Pure functions from a run's supervised stages to what the stage panels draw: the loss and
 * score curves, their readouts, and where each stage of the pipeline stands. No React, no DOM.
 */
import type { Stage, StartFrom } from '../../../pipeline/stages';
import type { SupervisedRecord } from '../../../agent/stage';
import { stagesFrom } from '../../../pipeline/stages';
import type { ReadoutValues } from '../curves';
import { toneOf, type RunView, type Series } from '../types';

export const STAGE_NAME: Record<Stage, string> = { pretrain: 'Pre-training', sft: 'Fine-tuning', grpo: 'GRPO' };
/** A stage's name inside a sentence: "after fine-tuning step 3", "after GRPO step 3". */
export const stageWord = (s: Stage): string => (s === 'grpo' ? STAGE_NAME[s] : STAGE_NAME[s].toLowerCase());

export type StageMetric = 'loss' | 'score';

/** loss: per step from 1; score: held-out (fine-tuning) or worksheet sums (pre-training), where measured. */
function stagePoints(records: readonly SupervisedRecord[], metric: StageMetric): [number, number][] {
  return records.flatMap((r): [number, number][] => {
    if (metric === 'loss') return r.loss === null ? [] : [[r.step, r.loss]];
    const score = r.heldOut ?? r.worksheet;
    return score ? [[r.step, score.success]] : [];
  });
}

export function stageSeries(records: readonly SupervisedRecord[], metric: StageMetric, dim: boolean): Series {
  return {
    id: dim ? 'earlier' : 'live',
    label: dim ? 'earlier run' : 'this run',
    tone: toneOf(false),
    dim,
    dash: 'solid',
    points: stagePoints(records, metric),
  };
}

/** The first and latest value of a stage's curve. */
export function stageReadout(records: readonly SupervisedRecord[], metric: StageMetric): ReadoutValues {
  const pts = stagePoints(records, metric);
  const first = pts[0];
  const last = pts.at(-1);
  return {
    start: first?.[1] ?? null,
    end: last?.[1] ?? null,
    span: first && last ? `step ${first[0]} → step ${last[0]}` : 'start → end',
  };
}

export type StageState = 'shipped' | 'done' | 'running' | 'next';

/**
 * Each stage of the pipeline `start` names, and where it stands for `run`: 'shipped' stages
 * happened before the page (the checkpoint it starts from was made by `npm run train:agent`).
 */
export function stageStates(start: StartFrom, run: RunView | null): { stage: Stage; state: StageState }[] {
  const own = stagesFrom(start);
  const order: Stage[] = ['pretrain', 'sft', 'grpo'];
  return order.map((stage) => {
    if (!own.includes(stage)) return { stage, state: 'shipped' };
    if (!run) return { stage, state: 'next' };
    const at = order.indexOf(run.stage);
    const i = order.indexOf(stage);
    const finished = run.end === 'done' || i < at;
    return { stage, state: finished ? 'done' : i === at ? 'running' : 'next' };
  });
}
