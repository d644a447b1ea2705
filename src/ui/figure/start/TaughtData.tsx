/** What the agent is taught before GRPO, in full: the 30 demonstrations and a few worksheet lines. */
import { memo } from 'react';
import { AGENT_RECIPE } from '../../../config';
import { demonstrationFor } from '../../../env/episode';
import { SPLIT } from '../../../env/sums';
import { worksheetRow } from '../../../env/worksheets';
import { createRng } from '../../../lib/rng';
import { codes, trainedFlags } from '../../../protocol/episode-view';
import { Transcript } from '../step/Transcript';

const DEMOS = SPLIT.demonstrations.slice(0, AGENT_RECIPE.sft.demonstrations).map(demonstrationFor);
// Three rows as the pre-training stream draws them (a fixed seed: the same lines on every visit).
const SHEETS = Array.from(
  { length: 3 },
  (
    (rng) => () =>
      worksheetRow(rng, AGENT_RECIPE.model.context, AGENT_RECIPE.pretrain.format)
  )(createRng(7)),
);

/** Fixed content: rendered once, never again while the figure updates. */
export const TaughtData = memo(function TaughtData() {
  return (
    <details className="taught">
      <summary>
        What the agent is taught before GRPO: {DEMOS.length} demonstrations, and worksheets of single-digit sums
      </summary>
      <p className="taught-note">
        Fine-tuning sees exactly these transcripts (the loss covers the highlighted model characters only), with
        worksheet lines mixed in; pre-training sees only worksheet lines, {AGENT_RECIPE.pretrain.batch} rows a step.
      </p>
      <ul className="taught-demos" aria-label="The 30 demonstrations">
        {DEMOS.map((d) => (
          <li key={d.text}>
            <Transcript
              episode={{
                text: d.text,
                authors: codes(d.authors),
                trained: trainedFlags(d.authors, 'model'),
                lied: false,
              }}
            />
          </li>
        ))}
      </ul>
      <ul className="taught-sheets" aria-label="Worksheet lines">
        {SHEETS.map((row) => (
          <li key={row}>
            <code className="transcript">{row}</code>
          </li>
        ))}
      </ul>
    </details>
  );
});
