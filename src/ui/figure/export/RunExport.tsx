/**
 * "Take this run away": the run as JSON and CSV files, and — where the host page can set a run
 * up from a link — a link that sets up its configuration again. The files are made when a link
 * is clicked (not on every step the figure draws).
 */
import { Fragment, type MouseEvent } from 'react';
import type { GrpoStepView } from '../../../protocol/episode-view';
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
import { callsWords } from '../../../env/world';
import type { RunView } from '../types';

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

/** A file the reader can take: its anchor, extension, link text, what follows the link, and its contents. */
interface Offered {
  id: string;
  ext: string;
  label: string;
  note?: string;
  type: string;
  make: () => string;
}

/** "Lead: file · file · file (note) · a link": the export's line, the files made as a link is clicked. */
function ExportLine(p: {
  className: string;
  lead: string;
  name: string;
  files: readonly Offered[];
  link: { href: string; label: string } | null;
}) {
  return (
    <p className={p.className}>
      {p.lead}:{' '}
      {p.files.map((f, i) => (
        <Fragment key={f.id}>
          {i > 0 && '· '}
          <a href={`#${f.id}`} download={`${p.name}${f.ext}`} onClick={offer(f.make, f.type)}>
            {f.label}
          </a>{' '}
          {f.note && (i < p.files.length - 1 ? `${f.note} ` : f.note)}
        </Fragment>
      ))}
      {p.link && (
        <>
          {' '}
          · <a href={p.link.href}>{p.link.label}</a>
        </>
      )}
    </p>
  );
}

function OneRun({ run, backend, shown, plate, reproduceUrl }: Props) {
  const link = reproduceUrl?.(run.config) ?? null;
  return (
    <ExportLine
      className="run-export"
      lead="Take this run away"
      name={runFileName(run.config)}
      files={[
        {
          id: 'run-json',
          ext: '.json',
          label: 'the run as JSON',
          note: '(every step, the episodes shown)',
          type: 'application/json',
          make: () => runJson(run, { plate, backend, shown }),
        },
        { id: 'run-csv', ext: '.csv', label: 'the curves as CSV', type: 'text/csv', make: () => runCsv(run) },
        {
          id: 'run-jsonl',
          ext: '.metrics.jsonl',
          label: 'the GRPO metrics as JSON Lines',
          note: `(TRL’s names, one step a line; ${JSONL_FIELDS})`,
          type: 'application/x-ndjson',
          make: () => runJsonl(run),
        },
      ]}
      link={link ? { href: link, label: 'a link that sets this configuration up again' } : null}
    />
  );
}

/** A run of every length, taken away together: the files hold each length's run, the link runs them all again. */
function EveryLength({ lengths: runs, backend, shown, plate, reproduceUrl }: Props) {
  const link = reproduceUrl?.({ ...runs[0]!.config, everyLength: true }) ?? null;
  return (
    <ExportLine
      className="run-export run-export-lengths"
      lead={`Take the run of every length away (${runs.map((r) => callsWords(r.config.episode)).join(', ')})`}
      name={`${runFileName(runs[0]!.config).replace('-run-', '-runs-')}-every-length`}
      files={[
        {
          id: 'runs-json',
          ext: '.json',
          label: 'the runs as JSON',
          type: 'application/json',
          make: () => runsJson(runs, { plate, backend, shown }),
        },
        {
          id: 'runs-csv',
          ext: '.csv',
          label: 'every length’s curves as CSV',
          type: 'text/csv',
          make: () => runsCsv(runs),
        },
        {
          id: 'runs-jsonl',
          ext: '.metrics.jsonl',
          label: 'every length’s GRPO metrics as JSON Lines',
          note: '(each line led by its episode)',
          type: 'application/x-ndjson',
          make: () => runsJsonl(runs),
        },
      ]}
      link={link ? { href: link, label: 'a link that runs every length again' } : null}
    />
  );
}
