/**
 * "Take this run away": the run as JSON and CSV files, and — where the host page can set a run
 * up from a link — a link that sets up its configuration again. The files are made when a link
 * is clicked (not on every step the figure draws).
 */
import type { MouseEvent } from 'react';
import type { GrpoStepView } from '../../protocol/episode-view';
import {
  JSONL_FIELDS,
  runCsv,
  runFileName,
  runJson,
  runJsonl,
  runsCsv,
  runsJson,
  runsJsonl,
  type LinkConfig,
} from './export';
import { callsWords } from './longer-episode';
import type { RunView } from './types';

interface Props {
  run: RunView;
  backend: string | null;
  /** The step whose episodes the viewer shows (they go into the JSON). */
  shown: GrpoStepView | null;
  plate: string;
  /** The host's link that sets a configuration up again; none is offered without it. */
  reproduceUrl?: (config: LinkConfig) => string;
  /** The runs of a run of every length that `run` is one of, in order (fewer than two: none). */
  lengths: readonly RunView[];
}

/** Points the clicked link at a fresh object URL before the browser follows it; frees it after. */
const offer = (make: () => string, type: string) => (e: MouseEvent<HTMLAnchorElement>) => {
  const url = URL.createObjectURL(new Blob([make()], { type }));
  e.currentTarget.href = url;
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
};

export function RunExport(p: Props) {
  return (
    <>
      <OneRun {...p} />
      {p.lengths.length > 1 && <EveryLength {...p} />}
    </>
  );
}

function OneRun({ run, backend, shown, plate, reproduceUrl }: Props) {
  const name = runFileName(run.config);
  const link = reproduceUrl?.(run.config) ?? null;
  return (
    <p className="run-export">
      Take this run away:{' '}
      <a
        href="#run-json"
        download={`${name}.json`}
        onClick={offer(() => runJson(run, { plate, backend, shown }), 'application/json')}
      >
        the run as JSON
      </a>{' '}
      (every step, the episodes shown) ·{' '}
      <a href="#run-csv" download={`${name}.csv`} onClick={offer(() => runCsv(run), 'text/csv')}>
        the curves as CSV
      </a>{' '}
      ·{' '}
      <a
        href="#run-jsonl"
        download={`${name}.metrics.jsonl`}
        onClick={offer(() => runJsonl(run), 'application/x-ndjson')}
      >
        the GRPO metrics as JSON Lines
      </a>{' '}
      (TRL’s names, one step a line; {JSONL_FIELDS})
      {link && (
        <>
          {' '}
          · <a href={link}>a link that sets this configuration up again</a>
        </>
      )}
    </p>
  );
}

/** A run of every length, taken away together: the files hold each length's run, the link runs them all again. */
function EveryLength({ lengths: runs, backend, shown, plate, reproduceUrl }: Props) {
  const name = `${runFileName(runs[0]!.config).replace('-run-', '-runs-')}-every-length`;
  const link = reproduceUrl?.({ ...runs[0]!.config, everyLength: true }) ?? null;
  const which = runs.map((r) => callsWords(r.config.episode)).join(', ');
  return (
    <p className="run-export run-export-lengths">
      Take the run of every length away ({which}):{' '}
      <a
        href="#runs-json"
        download={`${name}.json`}
        onClick={offer(() => runsJson(runs, { plate, backend, shown }), 'application/json')}
      >
        the runs as JSON
      </a>{' '}
      ·{' '}
      <a href="#runs-csv" download={`${name}.csv`} onClick={offer(() => runsCsv(runs), 'text/csv')}>
        the curves as CSV
      </a>{' '}
      ·{' '}
      <a
        href="#runs-jsonl"
        download={`${name}.metrics.jsonl`}
        onClick={offer(() => runsJsonl(runs), 'application/x-ndjson')}
      >
        every length’s GRPO metrics as JSON Lines
      </a>{' '}
      (each line led by its episode)
      {link && (
        <>
          {' '}
          · <a href={link}>a link that runs every length again</a>
        </>
      )}
    </p>
  );
}
