/**
 * The charts of a supervised stage: its loss per step and its score where measured (held-out
 * success while fine-tuning, single-digit sums while pre-training), with readouts; the plate's
 * 77% and the precomputed fine-tuning runs on the fine-tuning chart.
 */
import { memo, useId } from 'react';
import { AGENT_RECIPE, STAGE_EVAL_EVERY } from '../../../config';
import type { SupervisedRecord, SupervisedStageName } from '../../../agent/stage';
import type { BandPoint, Marker } from '../types';
import { lossAxis } from '../chart/axes';
import { LineChart } from '../chart/LineChart';
import { Readout } from './Readout';
import { STAGE_NAME, stageReadout, stageSeries, type StageMetric } from './stages';

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

const { pretrain, sft } = AGENT_RECIPE;
/** Beside each chart: what it counts and what to look for. */
const CAPTION: Record<SupervisedStageName, Record<StageMetric, string>> = {
  pretrain: {
    score: `Of the 100 single-digit sums, each as a worksheet’s first line, the share the model would answer right (its most likely characters), every ${STAGE_EVAL_EVERY} steps: look for it to climb toward 100%, the adding it will need before it ever sees a calculator.`,
    loss: `Mean cross-entropy a character on each step’s ${pretrain.batch} random worksheets: look for it to fall and flatten; what stays is the worksheets’ random sums, which no model can predict.`,
  },
  sft: {
    score: `The model’s greedy answers to the world’s held-out sums, with the reliable calculator, every ${STAGE_EVAL_EVERY} steps: look for it to climb as the model learns to call the calculator and copy its result.`,
    loss: `Mean cross-entropy a character on the ${sft.demonstrations} demonstrations (the model’s characters only) and ${sft.worksheetRows} worksheets, every step: look for it to fall; near 0 the demonstrations are learnt by heart, and held-out success says whether that carries to new sums.`,
  },
};

export const StagePanel = memo(function StagePanel({ stage, records, earlier, steps, band, plateMarker }: Props) {
  const prefix = STAGE_NAME[stage];
  const charts: { metric: StageMetric; name: string }[] = [
    { metric: 'score', name: `${prefix} ${SCORE[stage]}` },
    { metric: 'loss', name: `${prefix} ${LOSS[stage]}` },
  ];
  const losses = [...records, ...(earlier ?? [])].flatMap((r) => (r.loss === null ? [] : [r.loss]));
  const loss = lossAxis([...losses, ...(band?.loss.map((b) => b.hi) ?? [])]);
  const captions = useId();
  return (
    <section className={`stage-panel stage-${stage}`} aria-label={prefix}>
      <h2 className="stage-title">{prefix}</h2>
      {records.length === 0 && !earlier?.length && !band ? (
        // Nothing true to draw yet (no run, no reference runs of this stage): said, not drawn empty.
        <p className="stage-wait">
          {prefix}’s charts — {SCORE[stage]} and {LOSS[stage]} — draw each of its {steps} steps as this run takes them.
        </p>
      ) : (
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
                  captionId={`${captions}-${c.metric}`}
                />
                <Readout
                  name={c.name}
                  live={values}
                  tone="reliable"
                  format={y?.format}
                  plate={c.metric === 'score' && plateMarker ? plateMarker.label.replace(/^plate /, '') : ''}
                  earlier={[]}
                />
                <p className="chart-caption" id={`${captions}-${c.metric}`}>
                  {CAPTION[stage][c.metric]}
                </p>
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
});
