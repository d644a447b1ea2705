/**
 * The charts of a supervised stage: its loss per step and its score where measured (held-out
 * success while fine-tuning, single-digit sums while pre-training), with readouts; the plate's
 * 77% and the precomputed fine-tuning runs on the fine-tuning chart.
 */
import { memo } from 'react';
import type { SupervisedRecord, SupervisedStageName } from '../../agent/stage';
import type { BandPoint, Marker } from './types';
import { lossAxis } from './chart/axes';
import { LineChart } from './LineChart';
import { Readout } from './Readout';
import { stageReadout, stageSeries, type StageMetric } from './stages';
import { STAGE_NAME } from './StatusLine';

interface Props {
  stage: SupervisedStageName;
  /**
   * The stage's records in the live run, and in an earlier run (dimmed). Arrays keep their
   * identity until a record of this stage arrives, so the panel re-renders only then.
   */
  records: readonly SupervisedRecord[];
  earlier: readonly SupervisedRecord[] | null;
  steps: number;
  band?: { loss: BandPoint[]; score: BandPoint[] };
  /** The plate's held-out number for a fine-tuned agent, marked on the score chart. */
  plateMarker?: Marker;
}

const SCORE: Record<SupervisedStageName, string> = { pretrain: 'single-digit sums right', sft: 'held-out success' };
const LOSS: Record<SupervisedStageName, string> = { pretrain: 'worksheet loss', sft: 'loss on the training batch' };

export const StagePanel = memo(function StagePanel({ stage, records, earlier, steps, band, plateMarker }: Props) {
  const prefix = STAGE_NAME[stage];
  const charts: { metric: StageMetric; name: string }[] = [
    { metric: 'score', name: `${prefix} ${SCORE[stage]}` },
    { metric: 'loss', name: `${prefix} ${LOSS[stage]}` },
  ];
  const losses = [...records, ...(earlier ?? [])].flatMap((r) => (r.loss === null ? [] : [r.loss]));
  const loss = lossAxis([...losses, ...(band?.loss.map((b) => b.hi) ?? [])]);
  return (
    <section className={`stage-panel stage-${stage}`} aria-label={prefix}>
      <h3 className="stage-title">{prefix}</h3>
      <div className="charts">
        {charts.map((c) => {
          const live = records.length > 0 ? stageSeries(records, c.metric, false) : null;
          const dim = earlier && earlier.length > 0 ? stageSeries(earlier, c.metric, true) : null;
          const y = c.metric === 'loss' ? loss : undefined;
          const values = stageReadout(records, c.metric);
          return (
            <div key={c.metric} className={`chart-row chart-${stage}-${c.metric}`}>
              <LineChart
                name={c.name}
                frame={steps}
                steps={steps}
                series={[...(dim ? [dim] : []), ...(live ? [live] : [])]}
                live={live}
                band={band?.[c.metric]}
                markers={c.metric === 'score' && plateMarker ? [plateMarker] : []}
                y={y}
                xTitle={`${prefix.toLowerCase()} step`}
              />
              <Readout
                name={c.name}
                live={values}
                tone="reliable"
                format={y?.format}
                plate={c.metric === 'score' && plateMarker ? plateMarker.label.replace(/^plate /, '') : ''}
                earlier={[]}
              />
            </div>
          );
        })}
      </div>
    </section>
  );
});
