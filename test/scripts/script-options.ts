// What a script's source says of its options, read as text: the options its parseOptions spec
// names (with scripts/lib/'s SETTING_OPTIONS and RECIPE_OPTIONS spread in) and its header, the
// comment lines it opens with. The docs test and the scripts' test both read them.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RECIPE_OPTIONS } from '../../scripts/lib/recipe-options';
import { SETTING_OPTIONS } from '../../scripts/lib/setting-options';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The options a tsx script parses: the keys of its parseOptions spec, with the shared specs it spreads in. */
export function optionsOf(file: string): Set<string> {
  const source = read(file);
  const names = new Set(
    [...source.matchAll(/^\s*'?([a-z][\w-]*)'?: \{ type: '(?:string|boolean)'/gm)].map((m) => m[1]!),
  );
  // A spec written on one line (longer-episode.ts, build/kernels.ts).
  for (const m of source.matchAll(/[{,] '?([a-z][\w-]*)'?: \{ type: '(?:string|boolean)'/g)) names.add(m[1]!);
  if (source.includes('...SETTING_OPTIONS')) for (const k of Object.keys(SETTING_OPTIONS)) names.add(k);
  if (source.includes('...RECIPE_OPTIONS')) for (const k of Object.keys(RECIPE_OPTIONS)) names.add(k);
  return names;
}

/** The comment lines a script opens with, where it says how it is run. */
export function headerOf(file: string): string {
  const lines = read(file).split('\n');
  const end = lines.findIndex((l) => !l.startsWith('//'));
  return lines.slice(0, end).join('\n');
}
