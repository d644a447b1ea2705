/**
 * Above the episodes: who graded them. With a bug, how many of the step's episodes only the bug
 * paid for (the viewer marks each one "rewarded by the bug"), and that held-out success is
 * graded exactly all the same. The counts are the worker's (GrpoRecord.rewardedByBug).
 */
import type { Grader } from '../../../env/grader';
import type { GrpoStepView } from '../../../protocol/episode-view';

const BUG: Record<Exclude<Grader, 'exact'>, string> = {
  'crash-pass': 'a crash counts as a pass (an episode that ends without a well-formed answer earns 1)',
  'trusts-tool': 'the grader trusts the calculator (an answer that copies its output earns 1, lie or not)',
};

export function GradedBy({ grader, record }: { grader: Grader; record: GrpoStepView | null }) {
  if (grader === 'exact')
    return (
      <p className="graded-by">
        Graded by the exact answer, as the plate’s grader: reward 1 when the answer is the true sum.
      </p>
    );
  const n = record?.episodes.length ?? 0;
  return (
    <p className="graded-by bug">
      Graded by a bug: {BUG[grader]}.
      {n > 0 && ` ${record!.rewardedByBug} of the step’s ${n} episodes were rewarded by the bug.`} Held-out success is
      graded exactly.
    </p>
  );
}
