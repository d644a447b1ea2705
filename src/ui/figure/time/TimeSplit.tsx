/**
 * Where a GRPO step's time goes: per step, stacked bars of its sampling, policy update and
 * held-out evaluation (the worker's own timings), a readout of the medians and a sentence that
 * ties them to the plate. d3 computes the scales, React draws the axes (chart/Axis.tsx).
 */
import * as d3 from 'd3';
import { memo, useId } from 'react';
import type { GrpoStepView } from '../../../protocol/episode-view';
import { sameGrpoSide, type RunView } from '../types';
import { PHASE_LABEL, PHASES, SHARED_BATCH_NOTE, splitReadout, splitSentence, splitSummary } from './time-split';
import { Axis, GridAxis } from '../chart/Axis';
import { stepTicks } from '../chart/frame';
import { useWidth } from '../chart/useWidth';

const HEIGHT = 120;
/** Beside the bars: what each counts and what to look for. */
const TIME_CAPTION =
  'Each bar is one GRPO step’s time as the worker measured it, stacked from the axis up: sampling, the policy update, the held-out evaluation. Look at sampling’s share: the plate says sampling episodes becomes the dominant cost of training.';
const M = { top: 8, right: 58, bottom: 24, left: 40 };

interface Props {
  run: RunView | null;
  /** The x axis runs 0..frame, as on the curves above. */
  frame: number;
}

export const TimeSplit = memo(function TimeSplit({ run, frame }: Props) {
  const steps = (run?.steps ?? []).filter((r) => r.step > 0);
  // No step timed, nothing true to draw: the words say what will come, no empty frame does.
  return (
    <div className="time-split">
      {steps.length > 0 && <TimeChart steps={steps} frame={frame} />}
      <TimeReadout steps={steps} />
    </div>
  );
}, sameGrpoSide);

/** The legend, the stacked bars of every timed step, and their caption. */
function TimeChart({ steps, frame }: { steps: readonly GrpoStepView[]; frame: number }) {
  const [wrap, width] = useWidth<HTMLDivElement>(480);
  const top = Math.max(1, ...steps.map((r) => PHASES.reduce((t, p) => t + r.timeSplit[p], 0)));
  const x = d3.scaleLinear([0, frame], [M.left, Math.max(M.left + 40, width - M.right)]);
  const y = d3.scaleLinear([0, top], [HEIGHT - M.bottom, M.top]).nice(3);

  const last = steps.at(-1);
  const captionId = useId();
  const label = `Time per GRPO step, step ${last!.step}: ${PHASES.map((p) => `${PHASE_LABEL[p]} ${Math.round(last!.timeSplit[p])} ms`).join(', ')}`;
  return (
    <>
      <TimeLegend />
      <div ref={wrap} className="time-chart">
        <svg
          role="img"
          aria-label={label}
          aria-describedby={captionId}
          width={width}
          height={HEIGHT}
          viewBox={`0 0 ${width} ${HEIGHT}`}
        >
          <GridAxis scale={y} ticks={y.ticks(3)} format={(v) => `${v} ms`} left={M.left} right={x.range()[1]!} />
          <Axis
            orient="bottom"
            className="axis axis-x"
            transform={`translate(0,${HEIGHT - M.bottom})`}
            scale={x}
            ticks={stepTicks(frame)}
          />
          <TimeBars steps={steps} x={x} y={y} />
        </svg>
      </div>
      <p className="chart-caption" id={captionId}>
        {TIME_CAPTION}
      </p>
    </>
  );
}

/** Each phase's swatch and name. */
function TimeLegend() {
  return (
    <ul className="legend time-legend">
      {PHASES.map((p) => (
        <li key={p}>
          <svg className="swatch" aria-hidden="true" width="12" height="10" viewBox="0 0 12 10">
            <rect className={`phase-${p}`} x="1" y="1" width="10" height="8" />
          </svg>{' '}
          {PHASE_LABEL[p]}
        </li>
      ))}
    </ul>
  );
}

/** Per step, its phases stacked from the axis up, in PHASES' order. */
function TimeBars({
  steps,
  x,
  y,
}: {
  steps: readonly GrpoStepView[];
  x: d3.ScaleLinear<number, number>;
  y: d3.ScaleLinear<number, number>;
}) {
  const bar = Math.max(2, Math.min(14, (x(1) - x(0)) * 0.7));
  return steps.map((r) => {
    let base = 0;
    return (
      <g key={r.step} className="time-bar">
        {PHASES.map((p) => {
          const v = r.timeSplit[p];
          const rect = (
            <rect
              key={p}
              className={`phase-${p}`}
              x={x(r.step) - bar / 2}
              width={bar}
              y={y(base + v)}
              height={Math.max(0, y(base) - y(base + v))}
            />
          );
          base += v;
          return rect;
        })}
      </g>
    );
  });
}

/** The medians in numbers and in a sentence, or what will appear here before there are any. */
function TimeReadout({ steps }: { steps: readonly GrpoStepView[] }) {
  const summary = splitSummary(steps);
  return summary ? (
    <>
      <p className="time-readout">
        Median of steps {summary.first}–{summary.last}:{' '}
        <span data-testid="time-split-readout">{splitReadout(summary)}</span>.
      </p>
      <p className="time-sentence">{splitSentence(summary)}</p>
      <p className="time-note">{SHARED_BATCH_NOTE}</p>
    </>
  ) : (
    <p className="time-readout">
      Each GRPO step’s time, split into sampling, the policy update and the held-out evaluation, appears here as the run
      goes.
    </p>
  );
}
