// The figure rendered from plain props (no worker): what a reader sees at a given moment.
import { describe, expect, it } from 'vitest';
import { PLATE_SETTINGS } from '../../src/pipeline/settings';
import type { WorkerState } from '../../src/client/worker-state';
import { FIGURE_PROPS, renderFigure, run } from './fixtures';

const PROPS = FIGURE_PROPS;
const render = renderFigure;

describe('the figure', () => {
  it('says the engine warmed up while idle, or that the first run cut the warm-up short', () => {
    const info = {
      backend: 'wasm' as const,
      reason: 'the only one',
      skipped: [],
      engine: { webAssembly: 'simd' as const, jsSlowdown: null },
    };
    const ready = { ...info, loadMs: 800, checkpointHeldOut: 0.8, kernels: 'fused' as const };
    const warm = render({ worker: { backend: info, ready: { ...ready, warmUp: { ms: 650, complete: true } } } });
    expect(warm).toContain(
      'Loaded in 0.8 s. Warmed up while idle (0.7 s): the first steps are faster than from a cold start.',
    );
    const cut = render({ worker: { backend: info, ready: { ...ready, warmUp: { ms: 300, complete: false } } } });
    expect(cut).toContain('Warm-up cut short by the first run after 0.3 s.');
    expect(render({ worker: { backend: info, ready } })).not.toContain('Warm');
  });

  it('names the race’s winner in one short line and, one click away, every candidate’s measured time (?calibrate=all)', () => {
    // The words of a race in headless Chromium with both software GPUs (backends.e2e checks the
    // worker says these; here, that the figure shows them).
    const backend = {
      backend: 'wasm' as const,
      engine: { webAssembly: 'simd' as const, jsSlowdown: null },
      reason:
        'WASM (SIMD, one thread): the fastest of the 3 backends timed on a calibration step here (WASM (SIMD, one thread) 61 ms · WebGL on ANGLE (SwiftShader) > 92 ms · WebGPU on a software adapter, SwiftShader > 4210 ms).',
      skipped: [
        {
          backend: 'webgl' as const,
          reason:
            'stopped after 92 ms of a calibration step (WebGL on ANGLE (SwiftShader)), already clearly slower than WebAssembly’s 61 ms',
        },
        {
          backend: 'webgpu' as const,
          reason:
            'still warming up after 4210 ms (WebGPU on a software adapter, SwiftShader), already clearly slower than WebAssembly’s 61 ms',
        },
      ],
    };
    const html = render({ worker: { backend } });
    expect(html).toMatch(
      /<summary><strong>WebAssembly<\/strong> <span class="status-why-backend">· why<\/span><\/summary>/,
    );
    expect(html).toContain(`<p class="status-reason">${backend.reason.replaceAll('>', '&gt;')}</p>`);
    const skipped = /<ul class="status-skipped" aria-label="Why not the other backends">(.*?)<\/ul>/.exec(html)![1]!;
    const items = [...skipped.matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1]);
    expect(items).toEqual([
      'WebGL: stopped after 92 ms of a calibration step (WebGL on ANGLE (SwiftShader)), already clearly slower than WebAssembly’s 61 ms',
      'WebGPU: still warming up after 4210 ms (WebGPU on a software adapter, SwiftShader), already clearly slower than WebAssembly’s 61 ms',
    ]);
  });

  it('before any run: charts say what they draw instead of a run, the button says Run, the switch is labelled', () => {
    const html = render({ worker: { status: 'loading' } });
    expect(html).toContain('role="img" aria-label="Held-out success, no run on it yet; drawn: the plate’s numbers"');
    expect(html).toContain('role="img" aria-label="Mean reward, no run on it yet; drawn: the plate’s numbers"');
    expect(html).not.toContain('no data yet');
    expect(html).toMatch(/<button type="button" class="run" aria-disabled="true">.*Run<\/button>/);
    expect(html).toMatch(
      /<label class="switch faulty"><input type="checkbox" role="switch"[^>]*>\s*<span>Faulty calculator/,
    );
    expect(html).toContain('<progress aria-label="Loading TensorFlow.js and the checkpoint"');
  });

  it('while a run goes: a Pause button, labels with the latest step, readouts filled', () => {
    const html = render({
      worker: {
        status: 'running',
        stepsPerSecond: 1.5,
        backend: {
          backend: 'wasm',
          reason: 'r',
          skipped: [],
          engine: { webAssembly: 'simd' as const, jsSlowdown: null },
        },
      },
      run: run(1, false, 12),
    });
    expect(html).toMatch(/class="run" aria-disabled="false">.*Pause<\/button>/);
    expect(html).toContain('aria-label="Held-out success, step 12 of 40: 80%"');
    expect(html).toMatch(/aria-label="Mean reward, step 12 of 40: \d+%"/);
    expect(html).toMatch(/data-testid="readout">77% → 80%</);
    expect(html).toContain('<span class="status-speed">, 667 ms a step</span>');
    expect(html).toContain('GRPO · step 12 of 40');
  });

  it('says beside the controls that changed settings wait for Run after a run has ended, and only then', () => {
    const finished = { ...run(1, false, 40), end: 'done' as const };
    const changed = render({
      worker: { status: 'done' },
      run: finished,
      settings: { ...PLATE_SETTINGS, faulty: true },
    });
    expect(changed).toContain(
      'Your changed settings (faulty) wait for Run or Step; the run on the charts was trained as the plate sets it.',
    );
    // The note sits with the controls, before the status line and the charts.
    expect(changed.indexOf('settings-wait')).toBeLessThan(changed.indexOf('class="status"'));
    expect(render({ worker: { status: 'done' }, run: finished })).not.toContain('settings-wait');
    const live = render({
      worker: { status: 'running' },
      run: run(1, false, 5),
      settings: { ...PLATE_SETTINGS, faulty: true },
    });
    expect(live).not.toContain('settings-wait');
  });

  it('names only the settings that changed since the run on the charts: the faulty calculator after a two-call run', () => {
    const twoCalls = { ...PLATE_SETTINGS, episode: 'two-calls' as const };
    const finished = run(1, false, 40);
    const html = render({
      worker: { status: 'done' },
      run: { ...finished, end: 'done', config: { ...finished.config, ...twoCalls } },
      settings: { ...twoCalls, faulty: true },
    });
    expect(html).toContain('Your changed settings (faulty) wait for Run or Step');
  });

  it('gives every chart it draws a sentence beside it, tied to it, on what it counts and what to look for', () => {
    const step = run(1, false, 2);
    const last = step.steps.at(-1)!;
    const logp = { before: new Float32Array(19), after: new Float32Array(19) };
    const shown = {
      ...step,
      steps: [...step.steps.slice(0, -1), { ...last, episodes: last.episodes.map((e) => ({ ...e, logp })) }],
    };
    const supervised = (stage: 'pretrain' | 'sft') =>
      [0, 1, 2].map((i) => ({
        stage,
        step: i,
        steps: 200,
        loss: i === 0 ? null : 2 - i / 2,
        heldOut: stage === 'sft' ? { success: 0.1 * i, correct: 3 * i, n: 30 } : null,
        worksheet: stage === 'pretrain' ? { success: 0.2 * i, correct: 20 * i, n: 100 } : null,
        ms: 10,
      }));
    const scratch = {
      ...step,
      config: { ...step.config, start: 'scratch' as const },
      stages: ['pretrain' as const, 'sft' as const, 'grpo' as const],
      stage: 'sft' as const,
      pretrain: supervised('pretrain'),
      sft: supervised('sft'),
      steps: [],
    };
    const figures = [
      render({ worker: { status: 'loading' } }),
      render({ worker: { status: 'running' }, settings: { ...PLATE_SETTINGS, start: 'scratch' }, run: scratch }),
      render({ worker: { status: 'done' }, run: shown }),
      render({ worker: { status: 'done' }, run: { ...shown, config: { ...shown.config, updatesPerBatch: 4 } } }),
    ];
    const named = new Set<string>();
    for (const html of figures) {
      const charts = [...html.matchAll(/<svg role="img" aria-label="([^"]*)"([^>]*)>/g)];
      expect(charts.length).toBeGreaterThanOrEqual(7);
      for (const [, name, rest] of charts) {
        const ids = /aria-describedby="([^"]+)"/.exec(rest!)?.[1]?.split(' ') ?? [];
        const captions = ids.flatMap((id) => {
          const caption = new RegExp(`<p class="[^"]*\\bchart-caption\\b[^"]*" id="${id}">([^<]+)</p>`).exec(html);
          return caption ? [caption[1]!] : [];
        });
        expect(captions, name).toHaveLength(1);
        expect(captions[0]!.length, name).toBeGreaterThan(60);
        named.add(name!.replace(/[,:].*/, ''));
      }
    }
    // The plate's two, the diagnostics, the supervised stages', the vital signs, the clip, the time split, the group's.
    for (const chart of [
      'Held-out success',
      'Mean reward',
      'Answers that copy the tool',
      'Malformed episodes',
      'Pre-training single-digit sums right',
      'Fine-tuning loss on the training batch',
      'entropy',
      'Clipped characters',
      'Time per GRPO step',
      'Advantages of the 8 episodes of 23+45',
    ])
      expect(named).toContain(chart);
  });

  it('draws no axis before a run that repeats a tick’s label: an empty chart’s ticks still read apart', () => {
    for (const html of [render({}), render({ settings: { ...PLATE_SETTINGS, start: 'scratch' } })]) {
      const axes = [...html.matchAll(/<g class="axis[^"]*"[^>]*>(.*?)<\/g><\/g>(?!<g class="tick")/g)];
      expect(axes.length).toBeGreaterThan(6);
      for (const [axis] of axes) {
        const labels = [...axis.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
        expect(new Set(labels).size, labels.join(' ')).toBe(labels.length);
      }
    }
  });

  it('opens with one line for a first-time reader: the two charts first, the rest below them later', () => {
    const html = render({});
    const line = /<p class="first-path">([^<]*)<\/p>/.exec(html)?.[1];
    expect(line).toMatch(
      /watch the two charts below, held-out success and mean reward\. Each part under them opens with a click; /,
    );
    expect(html.indexOf('class="first-path"')).toBeLessThan(html.indexOf('class="run"'));
  });

  it('draws a finished reliable run dimmed under a live faulty one, on the same axes', () => {
    const html = render({
      worker: { status: 'running' },
      settings: { ...PLATE_SETTINGS, faulty: true },
      run: run(2, true, 5),
      previous: [run(1, false, 40)],
    });
    // In the GRPO panel and what the sampled episodes do: four charts (the plate's two, the two
    // diagnostics) and the two legends' swatches each
    const grpo = html.slice(html.indexOf('aria-label="GRPO"'), html.indexOf('class="term-switches"'));
    expect(grpo.match(/class="series tone-reliable dash-solid dim"/g)).toHaveLength(6);
    expect(grpo.match(/class="series tone-faulty dash-solid"/g)).toHaveLength(6);
    expect(html).toContain('earlier run (reliable): 77% → 93%');
    expect(html).toContain('earlier run: reliable');
    expect(html).toContain('this run: faulty');
  });

  it('shows one group of episodes with model and environment characters apart, and marks a lie', () => {
    const html = render({
      worker: { status: 'running' },
      settings: { ...PLATE_SETTINGS, faulty: true },
      run: run(2, true, 3),
    });
    expect(html).toContain('group 1 of 8');
    expect(html.match(/<tr[^>]*><td><code class="transcript">/g)).toHaveLength(8);
    expect(html).toContain('<span class="by-m" data-author="m">B23+45|</span>');
    expect(html).toContain('<span class="by-e lie" data-author="e">68|</span>');
    expect(html).toContain('calculator lied');
    expect(html).toContain('+1.00');
    expect(html).toContain('−1.00');
  });

  it('labels the reference band as precomputed, and says so when it is a placeholder', () => {
    const ref = {
      note: '',
      steps: 40,
      placeholder: true,
      runs: [{ seed: 1, faulty: false, heldOut: Array(41).fill(0.8), meanReward: Array(40).fill(0.7) }],
    };
    const html = render({ reference: { runs: ref } });
    expect(html).toContain('reference runs like this one (precomputed, 1 seed) — placeholder curves, not real runs');
    expect(html.match(/class="band" d="M/g)).toHaveLength(2); // the file has no diagnostics curves
  });

  it('heads the agent’s answer with the sum it answers, and its box takes whatever is typed, uncut', () => {
    const greedy = {
      sum: { a: 57, b: 38 },
      text: '^57+38=B57+38|95|95|',
      authors: 'pppppppmmmmmmmeeemmm',
      reward: 1,
      lied: false,
      reason: 'answered' as const,
    };
    const answer = {
      id: 1,
      sum: { a: 57, b: 38 },
      kind: 'new' as const,
      demonstration: false,
      by: { kind: 'shipped' as const },
      faulty: false,
      temperature: 1 as const,
      greedy,
      samples: [],
    };
    const html = render({ worker: { asks: { waiting: [], answer } } });
    expect(html).toContain('<p class="ask-for">The agent’s answer to <strong>57+38</strong></p>');
    // No maxLength: a box that cut a long paste to a sum's length would hand the parser a prefix
    // ("1234567890123456") that reads as another mistake, not as the too-long sum it was.
    expect(html).toMatch(/<input id="[^"]+" type="text" placeholder="57\+38" autoComplete="off"/);
    expect(html).not.toMatch(/maxLength/i);
    const failed = render({
      worker: {
        asks: { waiting: [], answer: { id: 2, sum: { a: 10, b: 99 }, error: 'The agent could not answer: boom' } },
      },
    });
    expect(failed).toContain(
      'The agent’s answer to <strong>10+99</strong></p><p class="ask-error">The agent could not answer: boom</p>',
    );
  });

  it('shows the URL notes and the worker’s error in words', () => {
    const html = render({
      worker: { status: 'dead', error: { kind: 'worker', message: 'The training worker stopped: boom.' } },
      notes: ['Ignored seed=x: expected a whole number.'],
    });
    expect(html).toContain('The training worker stopped: boom.');
    expect(html).toContain('Restart the trainer');
    expect(html).toContain('Ignored seed=x');
  });

  it('puts Step beside Run and Reset, usable when ready or paused, not while a run trains', () => {
    expect(render({})).toMatch(/<button type="button" class="step" aria-disabled="false"[^>]*>.*Step<\/button>/);
    expect(render({ worker: { status: 'running' }, run: run(1, false, 2) })).toMatch(
      /class="step" aria-disabled="true"[^>]*>.*Step<\/button>/,
    );
    const stepping = render({ worker: { status: 'stepping' }, run: run(1, false, 2) });
    expect(stepping).toMatch(/class="step" aria-disabled="true"[^>]*>.*Stepping…<\/button>/);
    expect(stepping).toMatch(/class="run" aria-disabled="false">.*Resume<\/button>/);
    expect(render({ worker: { status: 'paused' }, run: run(1, false, 3) })).toContain(
      '<span class="status-after" aria-live="polite">after GRPO step 3</span>',
    );
  });

  it('says beside a run from random weights why it lands above the shipped agent (its own pre-training seed)', () => {
    const from = (start: 'agent' | 'scratch', seed: number) => {
      const r = run(1, false, 2);
      return render({ run: { ...r, config: { ...r.config, start, seed } }, settings: { ...PROPS.settings, start } });
    };
    const note = (html: string) => /<p class="start-note">(.*?)<\/p>/.exec(html)?.[1];
    expect(note(from('scratch', 1))).toBe(
      'From random weights, this run pre-trains a worksheet model of its own (seed 1), not the shipped one (seed 2), and where fine-tuning lands depends mostly on that pre-training. ' +
        'Seed 2’s model was shipped because its fine-tunes land nearest the plate’s 77% (73–93% held-out); the four other seeds we tried land higher, 92–95% at the median. ' +
        'So a run from random weights most often starts GRPO above the shipped agent’s 80%, with less left to learn.',
    );
    expect(note(from('scratch', 2))).toMatch(
      /^From random weights at seed 2, this run pre-trains as the shipped worksheet model was/,
    );
    expect(note(from('agent', 1))).toBeUndefined();
    expect(note(render({}))).toBeUndefined();
  });

  it('says who paused the run and what lets it go on, as one sentence', () => {
    // The status line's words as a reader reads them, one span after another.
    const said = (holders: WorkerState['holders']) => {
      const html = render({ worker: { status: 'paused', holders }, run: run(1, false, 1) });
      const line = /<p class="status-line">(.*?)<\/p>/.exec(html)![1]!;
      return line
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .replace(/ ([:.])/g, '$1')
        .trim();
    };
    expect(said(['reader'])).toBe(
      'Paused after GRPO step 1 by you: it goes on when you press Resume. GRPO · step 1 of 40',
    );
    expect(said(['reader', 'tab hidden'])).toBe(
      'Paused after GRPO step 1 by you and while this tab is hidden: it goes on when you press Resume and you come back to this tab. GRPO · step 1 of 40',
    );
    expect(said(['out of view'])).toMatch(/while the figure is out of view: it goes on when you scroll back to it\./);
  });

  it('shows each character’s push with its name, the episode’s line and the group’s arithmetic when the record has log-probs', () => {
    const r = run(1, false, 2);
    const last = r.steps.at(-1)!;
    const logp = { before: new Float32Array(19).fill(Math.log(0.5)), after: new Float32Array(19).fill(Math.log(0.8)) };
    const steps = [...r.steps.slice(0, -1), { ...last, episodes: last.episodes.map((e) => ({ ...e, logp })) }];
    const html = render({ worker: { status: 'done' }, run: { ...r, steps } });
    expect(html).toContain('role="listitem" aria-label="B 0.50 → 0.80"');
    expect(html).toContain('aria-label="6 not trained on"');
    const at = html.indexOf('<table class="episode-table">');
    const table = html.slice(at, html.indexOf('</table>', at));
    expect(table.match(/tabindex="0"/g)).toHaveLength(1); // one tab stop for the group's characters
    expect(table.match(/tabindex="-1"/g)!.length).toBeGreaterThan(8 * 12);
    expect(html).toContain('its characters 1.60× as likely on average');
    expect(html).toContain('From rewards to advantages: 23+45');
    expect(html).toContain('mean = 4 / 8 = 0.5');
    expect(html).toContain('<label for=');
    expect(html).toMatch(/<label[^>]*>Your sum<\/label><input/);
  });
});
