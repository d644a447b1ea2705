import { describe, expect, it } from 'vitest';
import { isCommand } from '../src/protocol/guards';

const checkpoints = { agent: 'https://x/checkpoints/agent/', pretrained: 'https://x/checkpoints/pretrained/' };
const config = { start: 'agent', faulty: false, seed: 1, steps: 40 };

describe('isCommand', () => {
  it('accepts every well-formed command', () => {
    const good = [
      { type: 'init', checkpoints },
      { type: 'init', checkpoints, backend: 'wasm', wasmBaseUrl: 'https://x/wasm/' },
      { type: 'start', config },
      { type: 'start', config: { ...config, start: 'scratch' } },
      { type: 'configure', config: { ...config, faulty: true } },
      { type: 'pause' },
      { type: 'resume' },
      { type: 'reset' },
    ];
    for (const c of good) expect(isCommand(c), JSON.stringify(c)).toBe(true);
  });

  it('rejects unknown types, missing fields and wrong field types', () => {
    const bad = [
      null, 42, 'start', {}, { type: 'explode' },
      { type: 'init' }, { type: 'init', checkpoints: { agent: 'u' } }, { type: 'init', checkpoints, backend: 'tpu' },
      { type: 'init', checkpoints, wasmBaseUrl: 3 },
      { type: 'start' }, { type: 'start', config: { ...config, faulty: 'yes' } }, { type: 'start', config: { ...config, start: 'nowhere' } },
      { type: 'start', config: { ...config, seed: 1.5 } }, { type: 'start', config: { ...config, steps: 0 } },
      { type: 'configure' }, { type: 'setFaulty', faulty: true },
    ];
    for (const c of bad) expect(isCommand(c), JSON.stringify(c)).toBe(false);
  });
});
