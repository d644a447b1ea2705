// A script run as `npm run <script>` runs it — Node with tsx's loader — without npx's start-up
// (~0.8 s a call): its exit code and its trimmed output.
import { spawnSync } from 'node:child_process';

export const tsx = (script: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
};

/** The script's last line, as JSON (a `--json` run's whole result). */
export const lastJson = (out: string) => JSON.parse(out.split('\n').at(-1)!);
