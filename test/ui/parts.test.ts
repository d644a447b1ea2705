// The figure's deeper parts: the fragment that opens one, the part each setting's control lives
// in, where the parts beside the text go, and the headline each summary gives once a run has data.
import { describe, expect, it } from 'vitest';
import { PLATE } from '../../src/plate/text';
import { PLATE_SETTINGS, SETTING_KEYS } from '../../src/pipeline/settings';
import {
  behaviourHeadline,
  practitionerHeadline,
  settingsHeadline,
  stepHeadline,
  timeHeadline,
} from '../../src/ui/figure/parts/headlines';
import { BESIDE, paragraphWith } from '../../src/ui/figure/parts/paragraphs';
import {
  PART,
  partFragment,
  partMentions,
  partOfFragment,
  partsOfSettings,
  type PartId,
} from '../../src/ui/figure/parts/parts';
import { settingNotes } from '../../src/ui/figure/run/notes';
import { run } from './fixtures';

describe('the parts', () => {
  it('each open from a fragment of their own name, and no other fragment opens one', () => {
    for (const id of Object.keys(PART) as PartId[]) expect(partOfFragment(partFragment(id))).toBe(id);
    expect(partOfFragment('#mtrl-nothing')).toBeNull();
    expect(partOfFragment('#practitioner')).toBeNull();
    expect(partOfFragment('')).toBeNull();
  });

  it('name the part each setting’s control lives in, the plate’s own switch on the figure itself', () => {
    expect(partsOfSettings(['masking', 'grader'])).toEqual(['terms']);
    expect(partsOfSettings(['faulty'])).toEqual([]);
    expect(partsOfSettings(['updatesPerBatch', 'start', 'episode'])).toEqual(['practitioner', 'start', 'run-yourself']);
    for (const k of SETTING_KEYS) expect(k === 'faulty' || partsOfSettings([k]).length === 1, k).toBe(true);
  });

  it('are linked from a note that names one by its title in quotes, and only from there', () => {
    expect(partMentions('watch “What a practitioner reads”. Each step (“Where a step’s time goes” shows it).')).toEqual(
      [
        { text: 'watch ' },
        { text: 'What a practitioner reads', part: 'practitioner' },
        { text: '. Each step (' },
        { text: 'Where a step’s time goes', part: 'time' },
        { text: ' shows it).' },
      ],
    );
    expect(partMentions('what a practitioner reads, unquoted')).toEqual([
      { text: 'what a practitioner reads, unquoted' },
    ]);
    expect(partMentions('“Not a part”')).toEqual([{ text: '“Not a part”' }]);
    const reused = settingNotes({ ...PLATE_SETTINGS, updatesPerBatch: 2 }, null).join(' ');
    expect(partMentions(reused).flatMap((m) => m.part ?? [])).toEqual(['practitioner', 'time']);
  });

  it('go beside the results’ paragraph that says what each shows, one paragraph each, in the plate’s order', () => {
    const at = Object.values(BESIDE).map((words) => paragraphWith(PLATE.longerEpisode.paragraphs, words));
    expect(at).toEqual([0, 1, 2]);
    expect(paragraphWith(PLATE.longerEpisode.paragraphs, 'words the plate does not hold')).toBe(-1);
  });
});

describe('the summary lines', () => {
  it('say what a part holds until a run has data, then its headline figure from the run’s records', () => {
    expect(behaviourHeadline(null)).toBeNull();
    expect(practitionerHeadline(null)).toBeNull();
    expect(timeHeadline(null)).toBeNull();
    expect(stepHeadline(null, 8)).toBeNull();
    const r = run(1, false, 6);
    expect(behaviourHeadline(r)).toMatch(/^answers that copy the tool \d+% → \d+%, malformed episodes \d+% → \d+%$/);
    expect(practitionerHeadline(r)).toMatch(/^frac_reward_zero_std \d+% → \d+% \(step 1 → step 6\)$/);
    expect(timeHeadline(r)).toMatch(/^sampling \d+ ms \(\d+%\) · policy update \d+ ms/);
    const last = r.steps.at(-1)!;
    expect(stepHeadline(last, 8)).toMatch(
      new RegExp(`^step 6: ${last.episodes.length} episodes in \\d+ groups, \\d+ of which taught nothing$`),
    );
  });

  it('count the groups that taught nothing as the trainer counted them, from the step’s record', () => {
    const last = run(1, false, 2).steps.at(-1)!;
    expect(last.zeroSpreadGroups).toBe(0.25); // the fixture's: 2 of its 8 groups
    expect(stepHeadline(last, 8)).toBe('step 2: 64 episodes in 8 groups, 2 of which taught nothing');
    // The record, not a count of its own: the same episodes with another record say the record's.
    expect(stepHeadline({ ...last, zeroSpreadGroups: 0 }, 8)).toBe(
      'step 2: 64 episodes in 8 groups, 0 of which taught nothing',
    );
    expect(stepHeadline({ ...last, zeroSpreadGroups: null }, 8)).toBeNull();
  });

  it('say the settings a part holds only where they differ from the plate’s', () => {
    expect(settingsHeadline('terms', PLATE_SETTINGS)).toBe('as the plate sets them');
    expect(settingsHeadline('terms', { ...PLATE_SETTINGS, masking: false, faulty: true })).toBe('set: masking off');
  });
});
