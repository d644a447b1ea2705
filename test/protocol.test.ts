import { describe, expect, it } from 'vitest';
import { PLATE_SETTINGS } from '../src/pipeline/settings';
import { isCommand } from '../src/protocol/guards';

const checkpoints = {
  agent: 'https://x/checkpoints/agent/',
  pretrained: 'https://x/checkpoints/pretrained/',
  agentThreeCalls: 'https://x/checkpoints/agent-three-calls/',
};
const config = { ...PLATE_SETTINGS, seed: 1, steps: 40 };
const wasm = {
  'tfjs-backend-wasm.wasm': 'https://x/a.wasm',
  'tfjs-backend-wasm-simd.wasm': 'https://x/b.wasm',
  'tfjs-backend-wasm-threaded-simd.wasm': 'https://x/c.wasm',
};

describe('isCommand', () => {
  it('accepts every well-formed command', () => {
    const good = [
      { type: 'init', checkpoints, wasm },
      { type: 'init', checkpoints, wasm, backend: 'wasm' },
      {
        type: 'init',
        checkpoints: {
          agent: { manifest: { format: 'f' }, weights: 'https://x/w.bin' },
          pretrained: 'https://x/p/',
          agentThreeCalls: 'https://x/a3/',
        },
        wasm,
      },
      { type: 'start', config },
      { type: 'start', config: { ...config, start: 'scratch' } },
      { type: 'configure', config: { ...config, faulty: true } },
      { type: 'configure', config: { ...config, grader: 'crash-pass' } },
      { type: 'start', config: { ...config, grader: 'trusts-tool' } },
      { type: 'start', config: { ...config, updatesPerBatch: 4 } },
      { type: 'start', config: { ...config, agent: 'three-calls' } },
      { type: 'start', config: { ...config, episode: 'two-calls', agent: 'three-calls' } },
      { type: 'start', config: { ...config, episode: 'three-calls' } },
      { type: 'pause' },
      { type: 'resume' },
      { type: 'step' },
      { type: 'reset' },
      { type: 'ask', question: { id: 1, sum: { a: 57, b: 38 }, faulty: false, temperature: 1 } },
      { type: 'ask', question: { id: 2, sum: { a: 10, b: 99 }, faulty: true, temperature: 1.5 } },
    ];
    for (const c of good) expect(isCommand(c), JSON.stringify(c)).toBe(true);
  });

  it('rejects unknown types, missing fields and wrong field types', () => {
    const bad = [
      null,
      42,
      'start',
      {},
      { type: 'explode' },
      { type: 'init' },
      { type: 'init', checkpoints: { agent: 'u' }, wasm },
      { type: 'init', checkpoints: { agent: 'u', pretrained: 'p', agentTwoCalls: 'a2' }, wasm },
      { type: 'init', checkpoints, wasm, backend: 'tpu' },
      { type: 'init', checkpoints },
      { type: 'init', checkpoints, wasm: { ...wasm, 'tfjs-backend-wasm-simd.wasm': 3 } },
      { type: 'init', checkpoints: { ...checkpoints, agent: { manifest: 'm', weights: 'w' } }, wasm },
      { type: 'start' },
      { type: 'start', config: { ...config, faulty: 'yes' } },
      { type: 'start', config: { ...config, start: 'nowhere' } },
      { type: 'start', config: { ...config, seed: 1.5 } },
      { type: 'start', config: { ...config, steps: 0 } },
      { type: 'start', config: { ...config, steps: 41 } },
      { type: 'start', config: { ...config, steps: 100 } },
      { type: 'start', config: { ...config, seed: -1 } },
      { type: 'configure' },
      { type: 'setFaulty', faulty: true },
      { type: 'start', config: { ...config, masking: 'off' } },
      { type: 'start', config: { ...config, advantage: 'none' } },
      { type: 'start', config: { ...config, updatesPerBatch: 3 } },
      { type: 'start', config: { ...config, temperature: 2 } },
      // The two-call agent no longer ships (the three-call agent plays two calls): not a name there is.
      { type: 'start', config: { ...config, agent: 'two-calls' } },
      { type: 'start', config: { ...config, episode: 'four-calls' } },
      // The plate's agent cannot play two- or three-call sums: not a run the worker takes.
      { type: 'start', config: { ...config, episode: 'two-calls', agent: 'one-call' } },
      { type: 'start', config: { ...config, episode: 'three-calls', agent: 'one-call' } },
      { type: 'ask' },
      { type: 'ask', question: { id: 1, sum: { a: 5, b: 38 }, faulty: false, temperature: 1 } },
      { type: 'ask', question: { id: 1, sum: { a: 100, b: 3 }, faulty: false, temperature: 1 } },
      { type: 'ask', question: { id: 1, sum: { a: 57.5, b: 38 }, faulty: false, temperature: 1 } },
      { type: 'ask', question: { id: 1, sum: { a: '57', b: 38 }, faulty: false, temperature: 1 } },
      { type: 'ask', question: { id: 1, sum: { a: 57, b: 38 }, faulty: 'no', temperature: 1 } },
      { type: 'ask', question: { id: 1, sum: { a: 57, b: 38 }, faulty: false, temperature: 3 } },
      { type: 'ask', question: { sum: { a: 57, b: 38 }, faulty: false, temperature: 1 } },
      { type: 'start', config: { ...config, grader: 'lenient' } },
      { type: 'start', config: { ...config, grader: undefined } },
    ];
    for (const c of bad) expect(isCommand(c), JSON.stringify(c)).toBe(false);
  });
});
