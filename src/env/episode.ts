/**
 * The episode rules of the tool worlds, as a per-row state machine fed one character at a time.
 * One call (the plate's world), a sum of two terms:
 *
 *   prompt   ^23+45=          written by the harness
 *   call     B23+45|          written by the model
 *   result   68|              appended by the environment (the calculator)
 *   answer   68|              written by the model; graded against the true sum
 *
 * Two calls, a sum of three terms: `^23+45+17=`, then `B23+45|` `68|`, then `B68+17|` `85|`,
 * then the answer `85|`; three calls, a sum of four terms, one more call
 * (`^23+45+17+31=B23+45|68|B68+17|85|B85+31|116|116|`). An episode makes one call per term after
 * the first; every call follows the same rules, and so does the answer.
 *
 * A malformed call or answer, an over-long segment, or a full context ends the episode with a
 * reason; the episode still counts. A call that does not start with `B` — the first or a later
 * one — ends it as 'no call'. Whatever way it ends, its grader (env/grader.ts) decides the
 * reward: the plate's pays 1 for an exact answer only.
 */
import { CALL, END, START } from '../model/vocab';
import type { Calculator } from './calculator';
import { grade, isTrueAnswer, REWARD_WRONG, type EndReason, type Grader, type Outcome } from './grader';

export type { EndReason } from './grader';
import { terms, type Sum } from './sums';

export { REWARD_CORRECT } from './grader';

/** The tool worlds, by their episodes (env/world.ts describes each): one call, the plate's, two or three. */
export type EpisodeKind = 'one-call' | 'two-calls' | 'three-calls';
export const EPISODES: readonly EpisodeKind[] = ['one-call', 'two-calls', 'three-calls'];

/**
 * The shipped fine-tuned agents, each named by the longest episode it plays (env/world.ts's
 * AGENTS): the plate's one-call agent, and the three-call agent, which plays every length.
 */
export type AgentName = Extract<EpisodeKind, 'one-call' | 'three-calls'>;

/** `^` + two 2-digit operands + `+` + `=`: a one-call prompt (each further term makes it 3 longer). */
export const PROMPT_LENGTH = 7;
/** Operands in a call may have up to 3 digits (the model may slip, and 99 + 99 = 198); more is over-long. */
const MAX_OPERAND_DIGITS = 3;
/**
 * `B` + 3 digits + `+` + 3 digits + `|`.
 * @internal A test seam: exported for the tests of an over-long call.
 */
export const MAX_CALL_LENGTH = 2 + 2 * MAX_OPERAND_DIGITS + 1;
/** Up to 4 digits (999 + 999 = 1998) + `|`. */
const MAX_ANSWER_LENGTH = 5;
/** A result: up to 4 digits (1998, or a faulty calculator's 2008) + `|`. */
const MAX_RESULT_LENGTH = 5;

/**
 * The longest transcript an episode of `calls` calls can reach before its rules end it, every
 * segment at its longest (26 for one call, 43 for two, 60 for three): a context at least this long
 * never cuts one (env/world.ts checks every agent's against the worlds it plays).
 */
export const longestEpisode = (calls: number): number =>
  PROMPT_LENGTH + 3 * (calls - 1) + calls * (MAX_CALL_LENGTH + MAX_RESULT_LENGTH) + MAX_ANSWER_LENGTH;

export type Author = 'prompt' | 'model' | 'env' | 'pad';
/** Which part of its transcript an episode is in: one of the model's calls, its answer, or over. */
export type Segment = 'call' | 'answer' | 'done';

/** What one calculator call returned. */
export interface CallResult {
  value: number;
  lied: boolean;
}

export const promptFor = (s: Sum): string => `${START}${terms(s).join('+')}=`;

/**
 * The calls an episode of this sum makes: one per term after the first.
 * @internal A test seam: exported for the tests of the longer worlds' episodes
 */
export const callsFor = (s: Sum): number => terms(s).length - 1;

/**
 * The ideal transcript of a sum with a reliable calculator: what a demonstration shows. Each
 * call adds the next term to the result so far (`B23+45|68|B68+17|85|`), and the answer copies
 * the last result.
 */
export function demonstrationFor(s: Sum): { text: string; authors: Author[] } {
  const [first, ...rest] = terms(s);
  let text = promptFor(s);
  const authors: Author[] = Array<Author>(text.length).fill('prompt');
  const write = (segment: string, who: Author) => {
    text += segment;
    authors.push(...Array<Author>(segment.length).fill(who));
  };
  let acc = first!;
  for (const t of rest) {
    write(`${CALL}${acc}+${t}${END}`, 'model');
    acc += t;
    write(`${acc}${END}`, 'env');
  }
  write(`${acc}${END}`, 'model');
  return { text, authors };
}

const CALL_PATTERN = new RegExp(`^${CALL}(\\d{1,${MAX_OPERAND_DIGITS}})\\+(\\d{1,${MAX_OPERAND_DIGITS}})\\${END}$`);
const DIGIT = /^\d$/;

/** One episode's state. `feed` takes the model's next character and returns what the environment appends. */
export class Episode {
  segment: Segment = 'call';
  reason: EndReason | null = null;
  reward = REWARD_WRONG;
  /** The call being written, or the last one written. */
  call = '';
  answer = '';
  /** Every call's result, in call order. */
  readonly results: CallResult[] = [];
  /** The calls this episode makes before its answer. */
  readonly calls: number;

  constructor(
    readonly sum: Sum,
    private readonly calculator: Calculator,
    private readonly grader: Grader = 'exact',
  ) {
    this.calls = callsFor(sum);
  }

  get done(): boolean {
    return this.segment === 'done';
  }

  /** The last call's result: the one an answer that copies the tool copies (null before any call). */
  get result(): CallResult | null {
    return this.results[this.results.length - 1] ?? null;
  }

  /** The final answer is the true sum (whatever the grader paid). */
  get correct(): boolean {
    return this.reason !== null && isTrueAnswer(this.outcome(this.reason));
  }

  feed(ch: string): string {
    if (this.segment === 'call') return this.feedCall(ch);
    if (this.segment === 'answer') return this.feedAnswer(ch);
    throw new Error(`Episode.feed: the episode for ${terms(this.sum).join('+')} is already over (${this.reason})`);
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
    const result = this.calculator(Number(m[1]), Number(m[2]));
    this.results.push(result);
    if (this.results.length < this.calls) this.call = '';
    else this.segment = 'answer';
    return `${result.value}${END}`;
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

  private outcome(reason: EndReason): Outcome {
    return { sum: this.sum, reason, answer: this.answer, result: this.result };
  }

  private finish(reason: EndReason): string {
    this.segment = 'done';
    this.reason = reason;
    this.reward = grade(this.grader, this.outcome(reason));
    return '';
  }
}
