/**
 * The grader beside the calculator: the plate's exact answer, or one of two bugs that pay the
 * training episodes for something else. A native select with a visible label; the hint says
 * that held-out success is graded exactly whatever is chosen, because it is.
 */
import { useId } from 'react';
import type { Grader } from '../../protocol/messages';
import { GRADERS } from '../../pipeline/stages';

const GRADER_CHOICE: Record<Grader, string> = {
  exact: 'exact answer (the plate’s)',
  'crash-pass': 'a crash counts as a pass (a bug)',
  'trusts-tool': 'trusts the calculator (a bug)',
};

export function GraderControl({
  value,
  disabled,
  onChange,
}: {
  value: Grader;
  disabled: boolean;
  onChange: (g: Grader) => void;
}) {
  const hint = useId();
  return (
    <span className="select grader">
      <label>
        Grader{' '}
        <select
          value={value}
          disabled={disabled}
          aria-describedby={hint}
          onChange={(e) => onChange(e.currentTarget.value as Grader)}
        >
          {GRADERS.map((g) => (
            <option key={g} value={g}>
              {GRADER_CHOICE[g]}
            </option>
          ))}
        </select>
      </label>{' '}
      <span className="hint" id={hint}>
        (training episodes only; held-out success is always graded exactly)
      </span>
    </span>
  );
}
