/**
 * The reader's sum, read from what they typed: two whole numbers joined by `+`, each in the
 * world's range (10–99), or a sentence that says what is wrong. Pure, tested in Node.
 */
import { OPERAND_MAX, OPERAND_MIN, sumKey, type Sum } from '../../../env/sums';
import type { AnsweredBy, SumKind } from '../../../protocol/messages';
import { stageWord } from '../run/stages';

export type Parsed = { sum: Sum } | { error: string };

const RANGE = `two whole numbers from ${OPERAND_MIN} to ${OPERAND_MAX}`;

/** The longest text read as a sum: "99 + 99" with room for spaces. The box takes any length, so
 * that a longer paste is named as too long rather than cut to a prefix that reads as another mistake. */
const SUM_MAX_CHARS = 16;
/** What a message quotes of the reader's text, at most. */
const QUOTE_CHARS = 12;

/** The reader's text in quotes, a long one cut short: “abcdefghijkl…”. */
const quoted = (t: string): string =>
  `“${[...t].length > QUOTE_CHARS ? `${[...t].slice(0, QUOTE_CHARS).join('')}…` : t}”`;

export function parseSum(text: string): Parsed {
  const t = text.trim();
  if (t === '') return { error: `Type a sum first: ${RANGE} joined by +, such as 57+38.` };
  const length = [...t].length;
  if (length > SUM_MAX_CHARS)
    return {
      error: `${quoted(t)} is too long: ${length.toLocaleString('en-US')} characters, where a sum the agent can read has at most ${SUM_MAX_CHARS}. Write ${RANGE} joined by +, such as 57+38.`,
    };
  const m = /^(\d+)\s*\+\s*(\d+)$/.exec(t);
  if (!m) {
    if (/^\d+\s*\+?\s*$/.test(t)) return { error: `${quoted(t)} needs a second number after the +, such as 57+38.` };
    if (/^\s*\+\s*\d+$/.test(t)) return { error: `${quoted(t)} needs a first number before the +, such as 57+38.` };
    return { error: `${quoted(t)} is not a sum the agent can read: write ${RANGE} joined by +, such as 57+38.` };
  }
  const [a, b] = [Number(m[1]), Number(m[2])];
  const out = [a, b].filter((x) => x < OPERAND_MIN || x > OPERAND_MAX);
  if (out.length > 0)
    return {
      error: `The agent knows sums of ${RANGE} (the world’s range): ${out.join(' and ')} ${out.length > 1 ? 'are' : 'is'} outside it.`,
    };
  return { sum: { a, b } };
}

const KIND: Record<SumKind, string> = {
  training: 'a training sum: GRPO samples it in some steps',
  'held-out': 'a held-out sum: never trained on, one of the 30 the held-out chart scores',
  new: 'a new sum: in neither the training nor the held-out set',
};

/** "57+38 is a held-out sum: never trained on, …" */
export const sumKindText = (sum: Sum, kind: SumKind, demonstration: boolean): string =>
  `${sumKey(sum)} is ${KIND[kind]}${demonstration ? ', and one of the 30 demonstrations the agent was fine-tuned on' : ''}.`;

/** Which weights answered, in words. */
export const answeredByText = (by: AnsweredBy): string =>
  by.kind === 'shipped'
    ? 'the shipped agent (no run has trained a model yet)'
    : `this run’s policy after ${stageWord(by.stage)} step ${by.step}`;
