// The time a run has left, in the status line's words, and the slow engine's note.
import { describe, expect, it } from 'vitest';
import {
  aboutDuration,
  engineText,
  fewerSteps,
  inFlightText,
  paceOf,
  slowText,
  stillServes,
  timeLeftText,
} from '../../src/ui/figure/run/time-left';
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
    expect(slowText({ msPerStep: 900, estimated: false }, 'WebAssembly')).toBeNull();
    expect(slowText({ msPerStep: 3567, estimated: false }, 'plain JavaScript (CPU)')).toBe(
      'This browser trains slowly here: 3.6 s a step on plain JavaScript (CPU).',
    );
    expect(slowText({ msPerStep: 193_772, estimated: true }, 'plain JavaScript (CPU)')).toBe(
      'This browser trains slowly here: about 3 min a step on plain JavaScript (CPU), from the parts of the step in flight.',
    );
    expect(stillServes(true)).toBe(
      'Step takes one step and takes it apart below the charts; Pause keeps what has trained. The grey bands are precomputed runs of these settings, drawn already.',
    );
    expect(stillServes(false)).not.toContain('grey bands');
  });

  it('offers a run of about ten minutes where this one is longer', () => {
    expect(fewerSteps(193_772, 40)).toBe(3);
    expect(fewerSteps(61_583, 3)).toBeNull(); // 10 steps would be more, not fewer
    expect(fewerSteps(900_000, 40)).toBe(1);
  });
});

describe('the pace before a step is timed', () => {
  // Held-out evaluation before the first step, a quarter through: 30 s for 600 of 2444 units; a
  // usual step is 7418 units.
  const evaluation = {
    stage: 'grpo' as const,
    step: 0,
    phase: 'evaluation' as const,
    done: 600,
    of: 2444,
    perStep: 7418,
  };

  it('estimates a step from the first parts of the record in flight, and that record’s time left', () => {
    const pace = paceOf(null, null, { ...evaluation, ms: 30_000 });
    expect(pace.estimated).toBe(true);
    expect(pace.msPerStep).toBeCloseTo(7418 * 50, 6);
    expect(pace.inFlight).toMatchObject({ step: 0, phase: 'evaluation', leftMs: (2444 - 600) * 50 });
    expect(inFlightText(pace.inFlight!)).toBe('step 0: the held-out evaluation, 24%');
    // Step 0 in flight of a 3-step run: its own rest, then three steps.
    expect(timeLeftText({ stage: 'grpo', step: 0, steps: 3 }, pace.msPerStep, [], pace.inFlight)).toBe(
      'about 20 min to step 3',
    );
  });

  it('takes the measured steps’ pace once the stage has one, and nothing without either', () => {
    const pace = paceOf(1 / 60, 'grpo', { ...evaluation, step: 2, phase: 'update', ms: 30_000 });
    expect(pace).toMatchObject({ msPerStep: 60_000, estimated: false });
    expect(paceOf(null, null, null)).toEqual({ msPerStep: null, estimated: false, inFlight: null });
    // A new stage's record in flight is not paced by the stage before it.
    expect(paceOf(2, 'sft', { ...evaluation, ms: 30_000 }).estimated).toBe(true);
  });
});

describe('the engine, in words', () => {
  it('names WebAssembly missing apart from WebAssembly without SIMD, and JavaScript without its JIT by the probe', () => {
    expect(engineText({ webAssembly: 'none', jsSlowdown: 61 })).toBe(
      'This browser runs no WebAssembly, and JavaScript without its JIT (a short timed loop ran about 60× slower than with one).',
    );
    expect(engineText({ webAssembly: 'no-simd', jsSlowdown: 1.2 })).toBe(
      'This browser has WebAssembly without SIMD, which the plate’s WebAssembly build needs.',
    );
    expect(engineText({ webAssembly: 'simd', jsSlowdown: 40 })).toBe(
      'This browser runs JavaScript without its JIT (a short timed loop ran about 40× slower than with one).',
    );
    expect(engineText({ webAssembly: 'simd', jsSlowdown: null })).toBeNull();
    expect(engineText({ webAssembly: 'simd', jsSlowdown: 1.5 })).toBeNull();
  });
});

describe('the status line while a slow run trains', () => {
  const slow = {
    stepsPerSecond: 1000 / 3567,
    backend: {
      backend: 'cpu' as const,
      reason: 'forced',
      skipped: [],
      engine: { webAssembly: 'simd' as const, jsSlowdown: null },
    },
  };
  const at9 = run(1, false, 9);

  it('shows the time left beside the step, and the slow note once', () => {
    const html = renderFigure({ run: at9, worker: { ...slow, status: 'running' } });
    expect(html).toContain('GRPO · step 9 of 40</span><span class="status-left"> · about 2 min to step 40</span>');
    expect(html.match(/This browser trains slowly here/g)).toHaveLength(1);
    expect(html).toContain('3.6 s a step');
  });

  it('says no time left while the run is paused, and no slow note on a fast engine', () => {
    expect(renderFigure({ run: at9, worker: { ...slow, status: 'paused' } })).not.toContain('status-left');
    const fast = renderFigure({ run: at9, worker: { ...slow, stepsPerSecond: 10, status: 'running' } });
    expect(fast).not.toContain('trains slowly');
    expect(FIGURE_PROPS.worker.stepsPerSecond).toBeNull();
  });

  it('on an engine without WebAssembly or its JIT, names it, and from the first part says the cost and a shorter run', () => {
    const engine = { webAssembly: 'none' as const, jsSlowdown: 57 };
    const backend = { ...slow.backend, engine };
    const ready = renderFigure({ worker: { status: 'ready', backend } });
    expect(ready).toContain('This browser runs no WebAssembly, and JavaScript without its JIT');
    const inFlight = {
      stage: 'grpo' as const,
      step: 0,
      phase: 'evaluation' as const,
      done: 500,
      of: 2444,
      perStep: 7418,
    };
    const first = run(1, false, 0, 40);
    const html = renderFigure({
      run: { ...first, steps: [] },
      worker: { status: 'running', backend, stepsPerSecond: null, inFlight: { ...inFlight, ms: 15_000 } },
      reproduceUrl: (c) => `https://plate.example/?steps=${c.steps}`,
    });
    expect(html).toContain('<span class="status-flight"> · step 0: the held-out evaluation, 20%</span>');
    expect(html).toContain('about 4 min a step (estimated)');
    expect(html).toContain('<span class="status-left"> · about 2 h 29 min to step 40</span>');
    expect(html).toContain(
      'A run of 40 GRPO steps takes about 2 h 28 min; <a href="https://plate.example/?steps=3">a run of 3 steps</a> about 11 min.',
    );
    expect(html).toContain(
      'This browser trains slowly here: about 4 min a step on plain JavaScript (CPU), from the parts of the step in flight. It runs no WebAssembly, and JavaScript without its JIT',
    );
    expect(html).toContain('Step takes one step');
    const pausing = renderFigure({
      run: { ...first, steps: [] },
      worker: { status: 'pausing', backend, stepsPerSecond: null, inFlight: { ...inFlight, ms: 15_000 } },
    });
    expect(pausing).toContain('after step 0, about 1 min');
    expect(pausing).toContain('a run of 3 steps (the steps setting) about 11 min.');
  });
});
