// The notes beside the charts read their figures from the reference runs, so a note and the runs
// cannot part: the temperature's "against N% at 1" is the plate's runs' reward, whatever the file says.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import { settingNotes } from '../../src/ui/figure/run/notes';
import { parseReferenceRuns, type ReferenceRuns } from '../../src/ui/figure/reference';

const read = (file: string): ReferenceRuns =>
  parseReferenceRuns(JSON.parse(readFileSync(resolve(import.meta.dirname, '../../public', file), 'utf8')));
const REF = read('reference-runs.json');

/** The plate's runs' mean reward over their last five steps, averaged over the seeds, as a percentage. */
function plateReward(ref: ReferenceRuns): number {
  const plate = ref.runs.filter(
    (r) =>
      !r.faulty &&
      (r.masking ?? true) &&
      (r.advantage ?? 'group') === 'group' &&
      (r.grader ?? 'exact') === 'exact' &&
      (r.updatesPerBatch ?? 1) === 1 &&
      (r.episode ?? 'one-call') === 'one-call',
  );
  const last5 = plate.map((r) => r.meanReward.slice(-5).reduce((a, b) => a + b, 0) / 5);
  return Math.round((100 * last5.reduce((a, b) => a + b, 0)) / last5.length);
}

describe('the temperature’s note', () => {
  it('sets the reward at 0.5 and 1.5 against the plate’s reference runs’ reward at 1, read from their file', () => {
    expect(plateReward(REF)).toBe(78);
    for (const temperature of [0.5, 1.5] as const) {
      const [note] = settingNotes({ ...PLATE_SETTINGS, temperature }, REF);
      expect(note).toContain(`with the reliable calculator, against 78% at 1)`);
    }
  });

  it('says what another file says, and no figure where the file holds no runs of the plate’s', () => {
    const halved = { ...REF, runs: REF.runs.map((r) => ({ ...r, meanReward: r.meanReward.map((x) => x / 2) })) };
    expect(settingNotes({ ...PLATE_SETTINGS, temperature: 0.5 }, halved)[0]).toContain(
      `, against ${plateReward(halved)}% at 1)`,
    );
    const threeCalls = read('reference-runs-three-calls.json');
    expect(settingNotes({ ...PLATE_SETTINGS, temperature: 1.5 }, threeCalls)[0]).toContain(
      'with the reliable calculator), while',
    );
    expect(settingNotes({ ...PLATE_SETTINGS, temperature: 1.5 }, null)[0]).not.toMatch(/against \d+% at 1/);
  });
});
