/** The pipeline as a strip: which stages run here, which one runs now, which came with the page. */
import type { Stage, StartFrom } from '../../../pipeline/stages';
import type { RunView } from '../types';
import { stageStates, type StageState } from '../run/stages';
import { STAGE_NAME } from '../run/stages';

const WHAT: Record<Stage, string> = {
  pretrain: 'single-digit worksheets',
  sft: '30 demonstrations of the calculator',
  grpo: 'whole episodes, 8 sums × 8 episodes a step',
};

const STATE: Record<StageState, string> = {
  shipped: 'done before this page (shipped checkpoint)',
  done: 'done',
  running: 'running',
  next: 'next',
};

export function StageStrip({ start, run }: { start: StartFrom; run: RunView | null }) {
  return (
    <ol className="stage-strip" aria-label="The training pipeline">
      {stageStates(start, run).map(({ stage, state }) => (
        <li key={stage} className={`stage-step stage-${state}`} aria-current={state === 'running' ? 'step' : undefined}>
          <span className="stage-name">{STAGE_NAME[stage]}</span> <span className="stage-what">on {WHAT[stage]}</span>{' '}
          <span className="stage-state">· {STATE[state]}</span>
        </li>
      ))}
    </ol>
  );
}
