// The time a run has left, in the status line's words, and the slow engine's note.
import { describe, expect, it } from 'vitest';
import { aboutDuration, slowText, timeLeftText } from '../../src/ui/figure/run/time-left';
import { FIGURE_PROPS, renderFigure, run } from './fixtures';

describe('the time left to a run’s end', () => {
  it('rounds as a reader would: to 5 s under a minute, to minutes under an hour, then hours and minutes', () => {
    expect(aboutDuration(12_400)).toBe('about 10 s');
    expect(aboutDuration(47_000)).toBe('about 45 s');
    expect(aboutDuration(100_000)).toBe('about 2 min');
    expect(aboutDuration(3_600_000)).toBe('about 1 h');
    expect(aboutDuration(4_300_000)).toBe('about 1 h 12 min');
  });

  it('is the steps left at the measured pace: 31 GRPO steps at 3.6 s are about 2 min to step 40', () => {
    expect(timeLeftText({ stage: 'grpo', step: 9, steps: 40 }, 3567)).toBe('about 2 min to step 40');
    // The pace changes, the words follow it.
    expect(timeLeftText({ stage: 'grpo', step: 9, steps: 40 }, 1000)).toBe('about 30 s to step 40');
  });

  it('says nothing when the run is about to end, or before a pace is measured', () => {
    expect(timeLeftText({ stage: 'grpo', step: 30, steps: 40 }, 900)).toBeNull();
    expect(timeLeftText({ stage: 'grpo', step: 1, steps: 40 }, 120)).toBeNull();
    expect(timeLeftText({ stage: 'grpo', step: 1, steps: 40 }, null)).toBeNull();
  });

  it('before GRPO names the stage’s end and what follows it, whose pace is not known yet', () => {
    expect(timeLeftText({ stage: 'sft', step: 50, steps: 200 }, 400, ['grpo'])).toBe(
      'about 1 min to fine-tuning step 200, then GRPO',
    );
    expect(timeLeftText({ stage: 'pretrain', step: 10, steps: 100 }, 300, ['sft', 'grpo'])).toBe(
      'about 25 s to pre-training step 100, then fine-tuning and GRPO',
    );
  });

  it('calls a step of a second or more slow, and says what still serves the reader', () => {
    expect(slowText(900, 'WebAssembly', true)).toBeNull();
    expect(slowText(3567, 'plain JavaScript (CPU)', true)).toBe(
      'This browser trains slowly here: 3.6 s a step on plain JavaScript (CPU). Step takes one step and takes it apart below the charts; Pause keeps what has trained. The grey bands are precomputed runs of these settings, drawn already.',
    );
    expect(slowText(3567, 'WebAssembly', false)).not.toContain('grey bands');
  });
});

describe('the status line while a slow run trains', () => {
  const slow = { stepsPerSecond: 1000 / 3567, backend: { backend: 'cpu' as const, reason: 'forced', skipped: [] } };
  const at9 = run(1, false, 9);

  it('shows the time left beside the step, and the slow note once', () => {
    const html = renderFigure({ run: at9, worker: { ...slow, status: 'running' } });
    expect(html).toContain('GRPO · step 9 of 40</span><span class="status-left"> · about 2 min to step 40</span>');
    expect(html.match(/This browser trains slowly here/g)).toHaveLength(1);
  });

  it('says no time left while the run is paused, and no slow note on a fast engine', () => {
    expect(renderFigure({ run: at9, worker: { ...slow, status: 'paused' } })).not.toContain('status-left');
    const fast = renderFigure({ run: at9, worker: { ...slow, stepsPerSecond: 10, status: 'running' } });
    expect(fast).not.toContain('trains slowly');
    expect(FIGURE_PROPS.worker.stepsPerSecond).toBeNull();
  });
});
