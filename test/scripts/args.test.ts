// The scripts' command lines: a mistyped option is told in one line that names it and the options
// there are, never as Node's stack trace, for every script (they all read options in one place).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseOptions } from '../../src/node/args';
import { tsx } from './run-script';
import { headerOf, optionsOf } from './script-options';

const OPTIONS = {
  options: {
    steps: { type: 'string' },
    seed: { type: 'string' },
    faulty: { type: 'boolean', default: false },
  },
} as const;

/** What parseOptions prints and the exit code, when it exits. */
function mistake(args: string[], config: Parameters<typeof parseOptions>[0] = OPTIONS) {
  const said: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...m) => void said.push(m.join(' ')));
  vi.spyOn(process, 'exit').mockImplementation((code) => {
    throw new Error(`exit ${code}`);
  });
  expect(() => parseOptions(config, args)).toThrow('exit 1');
  return said;
}

afterEach(() => vi.restoreAllMocks());

/** The TypeScript files under `dir`, at any depth. */
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );

describe('a script’s options', () => {
  it('are read as node:util’s parseArgs reads them', () => {
    expect(parseOptions(OPTIONS, ['--steps', '3', '--faulty']).values).toEqual({ steps: '3', faulty: true });
    expect(parseOptions(OPTIONS, []).values).toEqual({ faulty: false });
  });

  it('name a mistyped option in one line, with the options there are and the likely one', () => {
    const said = mistake(['--bogus']);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^error: unknown option --bogus: \S+ takes --steps, --seed, --faulty \(its header says/);
    expect(said[0]).not.toMatch(/\n|ERR_PARSE_ARGS|TypeError/);
    expect(mistake(['--step', '3'])[0]).toMatch(/^error: unknown option --step \(did you mean --steps\?\): /);
  });

  it('say in one line that a value is missing, unwanted, or a word stray', () => {
    expect(mistake(['--seed'])[0]).toMatch(/^error: Option '--seed <value>' argument missing: \S+ takes --steps/);
    expect(mistake(['--faulty=yes'])[0]).toMatch(/^error: Option '--faulty' does not take an argument: /);
    expect(mistake(['run'])[0]).toMatch(/^error: Unexpected argument 'run'\. .*: \S+ takes --steps/);
  });

  it('are read through parseOptions by every script that takes any (none calls parseArgs itself)', () => {
    const scripts = files('scripts');
    expect(readFileSync(join('src', 'node', 'args.ts'), 'utf8')).toMatch(
      /import \{[^}]*\bparseArgs\b[^}]*\} from 'node:util'/,
    );
    const callers = scripts.filter((f) =>
      /import \{[^}]*\bparseArgs\b[^}]*\} from 'node:util'/.test(readFileSync(f, 'utf8')),
    );
    expect(callers).toEqual([]); // only src/node/args.ts's parseOptions does
    expect(scripts.filter((f) => /\bparseOptions\(/.test(readFileSync(f, 'utf8'))).length).toBeGreaterThanOrEqual(7);
  });

  it('are each listed in the header of the script that takes them', () => {
    const scripts = files('scripts').filter((f) => /\bparseOptions\(/.test(readFileSync(f, 'utf8')));
    for (const file of scripts) {
      const header = headerOf(file);
      const unlisted = [...optionsOf(file)].filter((o) => !new RegExp(`--${o}(?![\\w-])`).test(header));
      expect(unlisted, `${file}'s header should list these options`).toEqual([]);
    }
  });

  it('stop a script that writes files before it writes any: train:agent, make-sums and build:kernels -- --bogus', () => {
    const out = mkdtempSync(join(tmpdir(), 'train-agent-'));
    const written = ['src/env/sums.json', 'src/env/sums-two-calls.json', 'src/model/fused/kernels-wasm.ts'];
    const before = written.map((f) => statSync(f).mtimeMs);
    try {
      const runs = {
        'train-agent': tsx('train-agent', '--bogus', '--out', join(out, 'checkpoints')),
        'make-sums': tsx('make-sums', '--bogus'),
        'build/kernels': tsx('build/kernels', '--bogus'),
      };
      expect(runs['train-agent'].err).toMatch(
        /^error: unknown option --bogus: scripts\/train-agent\.ts takes --episode, --seed, --out, --backend, --sft-seed, --pretrain-steps, .*, --quiet \(its header/,
      );
      expect(runs['make-sums'].err).toBe('error: unknown option --bogus: scripts/make-sums.ts takes no options');
      expect(runs['build/kernels'].err).toMatch(
        /^error: unknown option --bogus: scripts\/build\/kernels\.ts takes --check /,
      );
      for (const [script, r] of Object.entries(runs)) {
        expect(r.code, script).toBe(1);
        expect(r.err.split('\n'), script).toHaveLength(1);
        expect(r.out, script).toBe('');
      }
      expect(existsSync(join(out, 'checkpoints'))).toBe(false);
      expect(written.map((f) => statSync(f).mtimeMs)).toEqual(before);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('npm run workshop -- --bogus prints one line and exits 1', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/workshop.ts', '--bogus'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(
      /^error: unknown option --bogus: scripts\/workshop\.ts takes --episode, --agent, --start, --faulty, /,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
