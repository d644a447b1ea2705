/**
 * The episode rules of the tool world, as a per-row state machine fed one character at a time.
 *
 *   prompt   ^23+45=          written by the harness (PROMPT_LENGTH characters)
 *   call     B23+45|          written by the model
 *   result   68|              appended by the environment (the calculator)
 *   answer   68|              written by the model; graded against the true sum
 *
 * A malformed call or answer, an over-long segment, or a full context ends the episode with a
 * reason; the episode still counts. Whatever way it ends, its grader (env/grader.ts) decides
 * the reward: the plate's pays 1 for an exact answer only.
 */
import { CALL, END, START } from '../model/vocab';
import type { Calculator } from './calculator';
import { grade, isTrueAnswer, REWARD_WRONG, type EndReason, type Grader } from './grader';

export type { EndReason } from './grader';
import type { Sum } from './sums';

export { REWARD_CORRECT } from './grader';

/** `^` + two 2-digit operands + `+` + `=`. */
export const PROMPT_LENGTH = 7;
/** Operands in a call may have up to 3 digits (the model may slip); more is over-long. */
const MAX_OPERAND_DIGITS = 3;
/**
 * `B` + 3 digits + `+` + 3 digits + `|`.
 * @internal A test seam: exported for the tests of an over-long call.
 */
export const MAX_CALL_LENGTH = 2 + 2 * MAX_OPERAND_DIGITS + 1;
/** Up to 4 digits (999 + 999 = 1998) + `|`. */
const MAX_ANSWER_LENGTH = 5;

export type Author = 'prompt' | 'model' | 'env' | 'pad';
/** Which part of its transcript an episode is in: the model's call, its answer, or over. */
export type Segment = 'call' | 'answer' | 'done';

export const promptFor = (s: Sum): string => `${START}${s.a}+${s.b}=`;

/** The ideal transcript of a sum with a reliable calculator: what a demonstration shows. */
export function demonstrationFor(s: Sum): { text: string; authors: Author[] } {
  const prompt = promptFor(s);
  const call = `${CALL}${s.a}+${s.b}${END}`;
  const result = `${s.a + s.b}${END}`;
  const answer = result;
  const authors: Author[] = [
    ...Array<Author>(prompt.length).fill('prompt'),
    ...Array<Author>(call.length).fill('model'),
    ...Array<Author>(result.length).fill('env'),
    ...Array<Author>(answer.length).fill('model'),
  ];
  return { text: prompt + call + result + answer, authors };
}

const CALL_PATTERN = new RegExp(`^${CALL}(\\d{1,${MAX_OPERAND_DIGITS}})\\+(\\d{1,${MAX_OPERAND_DIGITS}})\\${END}$`);
const DIGIT = /^\d$/;

/** One episode's state. `feed` takes the model's next character and returns what the environment appends. */
export class Episode {
  segment: Segment = 'call';
  reason: EndReason | null = null;
  reward = REWARD_WRONG;
  call = '';
  answer = '';
  result: { value: number; lied: boolean } | null = null;

  constructor(
    readonly sum: Sum,
    private readonly calculator: Calculator,
    private readonly grader: Grader = 'exact',
  ) {}

  get done(): boolean {
    return this.segment === 'done';
  }

  /** The final answer is the true sum (whatever the grader paid). */
  get correct(): boolean {
    return (
      this.reason !== null &&
      isTrueAnswer({ sum: this.sum, reason: this.reason, answer: this.answer, result: this.result })
    );
  }

  feed(ch: string): string {
    if (this.segment === 'call') return this.feedCall(ch);
    if (this.segment === 'answer') return this.feedAnswer(ch);
    throw new Error(`Episode.feed: the episode for ${this.sum.a}+${this.sum.b} is already over (${this.reason})`);
  }

  /** The harness ran out of context before the episode ended. */
  stopAtContextLimit(): void {
    if (!this.done) this.finish('context full');
  }

  private feedCall(ch: string): string {
    this.call += ch;
    if (this.call.length === 1 && ch !== CALL) return this.finish('no call');
    if (ch !== END) {
      if (ch !== CALL && ch !== '+' && !DIGIT.test(ch)) return this.finish('malformed call');
      if (this.call.length >= MAX_CALL_LENGTH) return this.finish('over-long call');
      return '';
    }
    const m = CALL_PATTERN.exec(this.call);
    if (!m) return this.finish('malformed call');
    this.result = this.calculator(Number(m[1]), Number(m[2]));
    this.segment = 'answer';
    return `${this.result.value}${END}`;
  }

  private feedAnswer(ch: string): string {
    if (ch === END) {
      if (this.answer.length === 0) return this.finish('malformed answer');
      return this.finish('answered');
    }
    if (!DIGIT.test(ch)) return this.finish('malformed answer');
    this.answer += ch;
    if (this.answer.length >= MAX_ANSWER_LENGTH) return this.finish('over-long answer');
    return '';
  }

  private finish(reason: EndReason): string {
    this.segment = 'done';
    this.reason = reason;
    this.reward = grade(this.grader, { sum: this.sum, reason, answer: this.answer, result: this.result });
    return '';
  }
}
