// The note beside a run from random weights states the sweep's figures: they must be the sweep's
// as docs/results.md records it, or the page says one thing and the record another.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AGENT_RECIPE } from '../../src/config';
import { scratchNote } from '../../src/ui/figure/run/start-note';

/** The held-out figures and median of "fine-tunes of pre-training seed N" in results.md's sweep table. */
function sweepRow(pretrainSeed: number): { heldOut: number[]; median: number } {
  const results = readFileSync(new URL('../../docs/results.md', import.meta.url), 'utf8');
  const row = results.split('\n').find((l) => l.includes(`| \`--pretrain-seed ${pretrainSeed}\` |`));
  if (!row) throw new Error(`results.md has no sweep row for --pretrain-seed ${pretrainSeed}`);
  const cells = row.split('|').map((c) => c.replace(/\*/g, '').trim());
  // | runs | options | seeds | validation per seed | median | held-out per seed | median |
  return { heldOut: cells[6]!.split(' ').map(Number), median: Number(cells[7]) };
}

const range = (xs: number[]) => `${Math.min(...xs)}–${Math.max(...xs)}%`;

describe('the note beside a run from random weights', () => {
  const shipped = AGENT_RECIPE.seed;

  it('gives the shipped worksheet model’s fine-tunes the range results.md records', () => {
    const fineTunes = range(sweepRow(shipped).heldOut);
    expect(scratchNote(shipped)).toContain(`land at ${fineTunes} held-out`);
    expect(scratchNote(shipped + 1)).toContain(`(${fineTunes} held-out)`);
  });

  it('gives the other pre-training seeds’ medians as results.md records them', () => {
    const others = [1, 2, 3, 4, 5].filter((s) => s !== shipped).map((s) => sweepRow(s).median);
    expect(scratchNote(shipped + 1)).toContain(`land higher, ${range(others)} at the median`);
  });
});
