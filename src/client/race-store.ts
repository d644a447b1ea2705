/**
 * The backend race's outcome, kept in the page's localStorage for the next visit (a worker has
 * no localStorage). Read as it is stored: the worker checks it (worker/backend-race.ts, readRace) and
 * measures again if it is corrupt, stale or for other hardware. Storage can be missing or refuse
 * (a sandboxed iframe, a full quota, private modes): then every visit measures, nothing breaks.
 */
import type { RaceRecord } from '../protocol/backends';

/** @internal A test seam: exported for the tests that plant and read a stored race. */
export const RACE_KEY = 'multi-turn-rl-plate:backend-race';

/** The stored race as parsed JSON, or undefined where there is none or it is not JSON. */
export function loadRace(storage: Pick<Storage, 'getItem'> | undefined = safeStorage()): unknown {
  try {
    const text = storage?.getItem(RACE_KEY);
    return text == null ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function saveRace(race: RaceRecord, storage: Pick<Storage, 'setItem'> | undefined = safeStorage()): void {
  try {
    storage?.setItem(RACE_KEY, JSON.stringify(race));
  } catch {
    // Kept for this visit only.
  }
}

function safeStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // reading `localStorage` itself throws where storage is blocked
  }
}
