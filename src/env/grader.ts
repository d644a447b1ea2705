/**
 * The grader: the one place that decides an episode's reward. The plate's grader pays 1 for an
 * exact final answer. The other two are bugs a reader can switch on for training episodes, to
 * see the plate's "its bugs become rewards" happen:
 *
 *   exact        1 when the answer is the true sum                     (the plate's)
 *   crash-pass   also 1 when the episode ends without a well-formed answer — a malformed call,
 *                no call, an over-long segment, a full context — as a test harness that counts
 *                an exception as a pass would
 *   trusts-tool  1 when the answer is the calculator's output (its last call's, with two
 *                calls), not the true sum: a lie the agent copies is paid in full
 *
 * The held-out evaluation always grades with `exact` (rl/evaluate.ts).
 */
import { total, type Sum } from './sums';

/** How an episode ended (env/episode.ts decides it); every reason but 'answered' is a crash. */
export type EndReason =
  | 'answered'
  | 'no call' // the model did not start with `B`
  | 'malformed call'
  | 'over-long call'
  | 'malformed answer'
  | 'over-long answer'
  | 'context full';

export type Grader = 'exact' | 'crash-pass' | 'trusts-tool';
export const GRADERS: readonly Grader[] = ['exact', 'crash-pass', 'trusts-tool'];

/** The outcome reward: 1 or 0, whatever the grader. */
export const REWARD_CORRECT = 1;
export const REWARD_WRONG = 0;

/** What a grader looks at once an episode is over. */
export interface Outcome {
  sum: Sum;
  reason: EndReason;
  /** The digits of the final answer ('' if the episode never got that far). */
  answer: string;
  /** The calculator's output, if the model called it: its last call's, when it made two. */
  result: { value: number } | null;
}

/** The episode ended with a well-formed answer (which may still be wrong). */
const answered = (o: Outcome): boolean => o.reason === 'answered';

/** The final answer is the true sum (every term added): what the exact grader pays for, and what "true success" counts. */
export const isTrueAnswer = (o: Outcome): boolean => answered(o) && Number(o.answer) === total(o.sum);

export function grade(grader: Grader, o: Outcome): number {
  switch (grader) {
    case 'exact':
      return isTrueAnswer(o) ? REWARD_CORRECT : REWARD_WRONG;
    case 'crash-pass':
      return !answered(o) || isTrueAnswer(o) ? REWARD_CORRECT : REWARD_WRONG;
    case 'trusts-tool':
      return answered(o) && o.result !== null && Number(o.answer) === o.result.value ? REWARD_CORRECT : REWARD_WRONG;
    default:
      return grader satisfies never;
  }
}

/** The grader paid for an episode that is not truly right: a reward only a bug gives. */
export const rewardedByBug = (e: { reward: number; correct: boolean }): boolean =>
  e.reward > (e.correct ? REWARD_CORRECT : REWARD_WRONG);
