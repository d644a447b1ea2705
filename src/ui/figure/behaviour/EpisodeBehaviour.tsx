/**
 * What the sampled episodes do: how many answers copy the calculator, how many episodes are
 * malformed, per GRPO step, against the reference runs' band — the same chart rows as the
 * plate's two charts (run/GrpoPanel.tsx), shorter.
 */
import { memo } from 'react';
import { grpoRows, SAMPLED, type GrpoChartSpec, type GrpoProps } from '../run/GrpoPanel';
import { sameGrpoSide } from '../types';

const DIAGNOSTICS: readonly GrpoChartSpec[] = [
  {
    id: 'copy',
    name: 'Answers that copy the tool',
    metric: 'copyRate',
    plate: false,
    caption: () =>
      `Of the step’s ${SAMPLED} sampled episodes, the share whose answer is the calculator’s result, lie or not: look for it near 100%; with the faulty calculator, copying is what carries its lies into the reward.`,
  },
  {
    id: 'malformed',
    name: 'Malformed episodes',
    metric: 'malformed',
    plate: false,
    caption: () =>
      `Of the step’s ${SAMPLED} sampled episodes, the share that ended without a well-formed call and answer (each earns 0 with the exact grader): look for it to stay low; a rise means the updates are breaking the episode’s form.`,
  },
];

/** The diagnostics' charts are shorter than the plate's. */
const HEIGHT = 130;

export const EpisodeBehaviour = memo(function EpisodeBehaviour(p: GrpoProps) {
  const { row, legendOf } = grpoRows(p);
  return (
    <>
      {legendOf(false)}
      <div className="charts diagnostics">{DIAGNOSTICS.map((c) => row(c, HEIGHT))}</div>
    </>
  );
}, sameGrpoSide);
