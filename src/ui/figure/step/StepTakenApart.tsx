/**
 * One step taken apart: the latest step's episodes, each character's push and the group's
 * arithmetic (EpisodeViewer), and the reader's own sum (AskAgent). On the page a chunk of its own,
 * asked for when the part first opens (step-load.ts).
 */
import type { RunConfig } from '../../../pipeline/settings';
import type { AskAnswer, AskQuestion } from '../../../protocol/messages';
import type { GrpoStepView } from '../../../protocol/episode-view';
import type { WorkerStatus } from '../types';
import { AskAgent } from './AskAgent';
import { EpisodeViewer } from './EpisodeViewer';

export interface StepTakenApartProps {
  record: GrpoStepView | null;
  config: RunConfig | null;
  status: WorkerStatus;
  loaded: boolean;
  faulty: boolean;
  temperature: RunConfig['temperature'];
  waiting: readonly AskQuestion[];
  answer: AskAnswer | null;
  onAsk: (q: Omit<AskQuestion, 'id'>) => void;
}

export function StepTakenApart({ record, config, ...ask }: StepTakenApartProps) {
  return (
    <>
      <EpisodeViewer record={record} config={config} />
      <AskAgent {...ask} />
    </>
  );
}
