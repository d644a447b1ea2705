// The page keeps the backend race for the next visit; storage that is missing, blocked or holds
// garbage costs a measurement, never the page.
import { describe, expect, it } from 'vitest';
import { loadRace, RACE_KEY, saveRace } from '../../src/client/race-store';
import { RACE_VERSION, type RaceRecord } from '../../src/protocol/backends';

const race: RaceRecord = {
  version: RACE_VERSION,
  hardware: 'h',
  entries: [{ backend: 'wasm', what: 'WASM', ms: 38, cut: false }],
};

function memory(): Storage {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) } as Storage;
}

describe('the kept backend race', () => {
  it('comes back as it was saved', () => {
    const s = memory();
    saveRace(race, s);
    expect(loadRace(s)).toEqual(race);
  });

  it('reads as nothing when absent or not JSON, for the worker to measure again', () => {
    const s = memory();
    expect(loadRace(s)).toBeUndefined();
    s.setItem(RACE_KEY, '{"version": 1, "hardw');
    expect(loadRace(s)).toBeUndefined();
  });

  it('never throws where storage refuses', () => {
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    } as unknown as Storage;
    expect(loadRace(refusing)).toBeUndefined();
    expect(() => saveRace(race, refusing)).not.toThrow();
  });
});
