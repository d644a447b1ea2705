// Small helpers for the scripts' command lines: the one place every script reads its options,
// checked numbers and one-line fatal errors.
import { relative } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

type OptionsConfig = Omit<ParseArgsConfig, 'args'>;

/**
 * node:util's parseArgs over the script's command line, with a mistake (an option it does not
 * take, a missing value, a stray word) told in one line that names the options there are,
 * instead of Node's stack trace.
 */
export function parseOptions<T extends OptionsConfig>(config: T, args = process.argv.slice(2)) {
  try {
    return parseArgs<T & { args: string[] }>({ ...config, args });
  } catch (e) {
    fail(optionsMistake(e as Error & { code?: string }, config, scriptName()));
  }
}

/** The script as its header names it: scripts/workshop.ts. */
const scriptName = (): string => relative(process.cwd(), process.argv[1] ?? 'the script');

/** A parseArgs error in one line, with the options the script takes and, for a near miss, the likely one. */
function optionsMistake(e: Error & { code?: string }, config: OptionsConfig, script: string): string {
  const names = Object.keys(config.options ?? {}).map((n) => `--${n}`);
  const takes =
    names.length > 0
      ? `${script} takes ${names.join(', ')} (its header says what each means)`
      : `${script} takes no options`;
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const given = /'([^']+)'/.exec(e.message)?.[1] ?? e.message;
    const near = names.find((n) => editDistance(n, given.split('=')[0]!) <= 2);
    return `unknown option ${given}${near ? ` (did you mean ${near}?)` : ''}: ${takes}`;
  }
  if (e.code?.startsWith('ERR_PARSE_ARGS_')) return `${e.message.replace(/\.$/, '')}: ${takes}`;
  return e.message;
}

/** Levenshtein distance, for "did you mean": option names are a few characters long. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** Parses an integer option or exits with a one-line error naming the option. */
export function intOption(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) fail(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  return n;
}

/** Parses a list of seeds — `1-10`, `1,3,7` or a mix, `1-5,9` — or exits with a one-line error naming the option. */
export function seedsOption(name: string, text: string): number[] {
  const seeds = text.split(',').flatMap((part) => {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) fail(`--${name} must look like 1-10 or 1,3,7, got ${JSON.stringify(text)}`);
    const [lo, hi] = [Number(m[1]), Number(m[2] ?? m[1])];
    return Array.from({ length: Math.max(0, hi - lo + 1) }, (_, i) => lo + i);
  });
  if (seeds.length === 0) fail(`--${name} names no seed: ${JSON.stringify(text)}`);
  return seeds;
}

/** Parses a finite number option or exits with a one-line error naming the option. */
export function numberOption(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) fail(`--${name} must be a number, got ${JSON.stringify(value)}`);
  return n;
}

export function oneOf<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T))
    fail(`--${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  return value as T;
}

export function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(1);
}

/** Runs a script's body; any error ends the process with its message on one line. */
export async function main(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    fail((e as Error).message);
  }
}
