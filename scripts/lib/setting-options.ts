// The reader's run settings on a script's command line, derived from their table
// (src/pipeline/settings.ts): `--<name> <text>` as the URL writes it (`--masking off`,
// `--temperature 1.5`), a switch the URL may write bare (`faulty`) as a flag (`--faulty`).
import { agentRefusal } from '../../src/env/world';
import {
  choiceOfText,
  PLATE_SETTINGS,
  SETTING_KEYS,
  SETTINGS,
  textOf,
  type RunSettings,
} from '../../src/pipeline/settings';
import { fail } from '../../src/node/args';

/** A setting the URL may write bare (`?faulty`) is a flag here. */
const isFlag = (k: keyof RunSettings): boolean => choiceOfText(k, '') !== undefined;

type Spec = { type: 'string' } | { type: 'boolean' };

/** parseArgs' specs for every setting, keyed by its name. */
export const SETTING_OPTIONS: Record<string, Spec> = Object.fromEntries(
  SETTING_KEYS.map((k) => [SETTINGS[k].name, isFlag(k) ? { type: 'boolean' } : { type: 'string' }]),
);

const choiceTexts = (k: keyof RunSettings): string[] =>
  (SETTINGS[k].choices as readonly RunSettings[typeof k][]).map((c) => textOf(k, c));

/**
 * The settings as a script's JSON writes them: each its value, but a switch written in words
 * (`masking`) as its word, as the command line takes it.
 */
export const settingsAsWritten = (s: RunSettings): Record<string, string | number | boolean> =>
  Object.fromEntries(SETTING_KEYS.map((k) => [k, typeof s[k] === 'boolean' && !isFlag(k) ? textOf(k, s[k]) : s[k]]));

/** The settings given on the command line (the rest left out, so the plate's stand); exits with one line on a bad value. */
export function settingsGiven(values: Record<string, string | boolean | undefined>): Partial<RunSettings> {
  const given: Partial<Record<keyof RunSettings, unknown>> = {};
  for (const k of SETTING_KEYS) {
    const name = SETTINGS[k].name;
    const v = values[name];
    if (v === undefined) continue;
    const text = typeof v === 'boolean' ? (v ? '1' : '0') : v;
    const choice = choiceOfText(k, text);
    if (choice === undefined) fail(`--${name} must be one of ${choiceTexts(k).join(', ')}, got ${JSON.stringify(v)}`);
    given[k] = choice;
  }
  const refused = given.agent && agentRefusal({ episode: PLATE_SETTINGS.episode, ...given } as RunSettings);
  if (refused) fail(`--agent ${textOf('agent', given.agent as RunSettings['agent'])}: ${refused}`);
  return given as Partial<RunSettings>;
}
