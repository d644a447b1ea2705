import { describe, expect, it, vi } from 'vitest';
import { isCommand } from '../../src/worker/protocol';
import { backendFromUrl } from '../../src/worker/useTrainer';

describe('isCommand', () => {
  it('accepts every well-formed command', () => {
    const good = [
      { type: 'init', checkpointUrl: 'https://x/checkpoints/agent/' },
      { type: 'init', checkpointUrl: 'https://x/', backend: 'wasm', wasmBaseUrl: 'https://x/wasm/' },
      { type: 'start', config: { faulty: false, seed: 1, steps: 40 } },
      { type: 'setFaulty', faulty: true },
      { type: 'pause' },
      { type: 'resume' },
      { type: 'reset' },
    ];
    for (const c of good) expect(isCommand(c), JSON.stringify(c)).toBe(true);
  });

  it('rejects unknown types, missing fields and wrong field types', () => {
    const bad = [
      null, 42, 'start', {}, { type: 'explode' },
      { type: 'init' }, { type: 'init', checkpointUrl: 'u', backend: 'tpu' }, { type: 'init', checkpointUrl: 'u', wasmBaseUrl: 3 },
      { type: 'start' }, { type: 'start', config: { faulty: 'yes', seed: 1, steps: 3 } },
      { type: 'start', config: { faulty: false, seed: 1.5, steps: 3 } }, { type: 'start', config: { faulty: false, seed: 1, steps: 0 } },
      { type: 'setFaulty' }, { type: 'setFaulty', faulty: 1 },
    ];
    for (const c of bad) expect(isCommand(c), JSON.stringify(c)).toBe(false);
  });
});

describe('backendFromUrl', () => {
  it('reads ?backend= and ignores a name it does not know', () => {
    expect(backendFromUrl('?backend=cpu&seed=2')).toBe('cpu');
    expect(backendFromUrl('?seed=2')).toBeUndefined();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(backendFromUrl('?backend=tpu')).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/backend=tpu is not one of/));
    warn.mockRestore();
  });
});
