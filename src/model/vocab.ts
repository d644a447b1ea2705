/**
 * The character vocabulary. `.` pads, `^` starts a transcript, `B` opens a calculator call,
 * `|` closes every segment (call, result, answer, worksheet line).
 */
export const PAD = '.';
export const START = '^';
export const CALL = 'B';
export const END = '|';
export const VOCAB = `${PAD}${START}0123456789+=${CALL}${END}`;

const INDEX = new Map<string, number>([...VOCAB].map((c, i) => [c, i]));
export const PAD_ID = 0;

export function encode(text: string): number[] {
  return [...text].map((c) => {
    const id = INDEX.get(c);
    if (id === undefined) throw new Error(`encode: character ${JSON.stringify(c)} is not in the vocabulary "${VOCAB}"`);
    return id;
  });
}
