/** "Take this run away": the run as JSON and CSV files, and a link that sets up its configuration again. */
import { useEffect, useMemo } from 'react';
import type { StepRecord } from '../../protocol/messages';
import { reproduceUrl, runCsv, runFileName, runJson } from './export';
import type { RunView } from './types';

interface Props {
  run: RunView;
  backend: string | null;
  /** The step whose episodes the viewer shows (they go into the JSON). */
  shown: StepRecord | null;
  plate: string;
}

/** An object URL for `text`, revoked when it changes or the component goes. */
function useBlobUrl(text: string, type: string): string {
  const url = useMemo(() => URL.createObjectURL(new Blob([text], { type })), [text, type]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return url;
}

export function RunExport({ run, backend, shown, plate }: Props) {
  const name = runFileName(run.config);
  const json = useBlobUrl(runJson(run, { plate, backend, shown }), 'application/json');
  const csv = useBlobUrl(runCsv(run), 'text/csv');
  const link = typeof location === 'undefined' ? null : reproduceUrl(location.href, run.config);
  return (
    <p className="run-export">
      Take this run away: <a href={json} download={`${name}.json`}>the run as JSON</a> (every step, the episodes shown) ·{' '}
      <a href={csv} download={`${name}.csv`}>the curves as CSV</a>
      {link && (
        <>
          {' '}
          · <a href={link}>a link that sets this configuration up again</a>
        </>
      )}
    </p>
  );
}
