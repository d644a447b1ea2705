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

export function decode(ids: ArrayLike<number>): string {
  let out = '';
  for (let i = 0; i < ids.length; i++) {
    const c = VOCAB[ids[i]!];
    if (c === undefined) throw new Error(`decode: id ${ids[i]} is outside the vocabulary (0..${VOCAB.length - 1})`);
    out += c;
  }
  return out;
}
