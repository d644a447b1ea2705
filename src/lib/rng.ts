/**
 * A small seeded PRNG (mulberry32). Everything random in env/ and rl/ takes one of
 * these explicitly, so a seed reproduces a run exactly; nothing calls Math.random.
 */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** A 31-bit integer, for seeding tfjs ops (dropout, init) from this stream. */
  seed(): number;
}

export function createRng(seed: number): Rng {
  if (!Number.isInteger(seed)) throw new Error(`createRng: seed must be an integer, got ${seed}`);
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    seed: () => Math.floor(next() * 0x7fffffff),
  };
}

/** Fisher–Yates shuffle of a copy. */
export function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
