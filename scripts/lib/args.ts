// Small helpers for the scripts' command lines: checked numbers and one-line fatal errors.

/** Parses an integer option or exits with a one-line error naming the option. */
export function intOption(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) fail(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  return n;
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
