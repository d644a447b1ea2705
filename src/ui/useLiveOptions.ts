/**
 * Options that change after the plate mounted — an element's attribute, a component's prop — act
 * as the matching control would: the start or a GRPO setting (the calculator, the credit, the
 * temperature, the grader) as if the reader had changed it,
 * autorun turned on as if Run were pressed. A change of the backend, of the plate's files or of
 * the worker's script needs a new worker (useTrainingWorker starts one when they change): a note says
 * so, and the reader's settings stay as they are.
 */
import { useEffect, useInsertionEffect, useRef, useState } from 'react';
import { PLATE_SETTINGS, SETTING_KEYS, type RunSettings } from '../pipeline/settings';
import type { PlateOptions } from './options';

/** The settings the options ask for, the plate's where they ask for none. */
export const settingsOf = (o: PlateOptions): RunSettings =>
  Object.fromEntries(SETTING_KEYS.map((k) => [k, o[k] ?? PLATE_SETTINGS[k]])) as RunSettings;

/** The options a worker is made with. */
const WORKER_OPTIONS = ['backend', 'calibrate', 'assetBase', 'workerUrl'] as const;
type WorkerOptions = Pick<PlateOptions, (typeof WORKER_OPTIONS)[number]>;

const CHANGE: Record<keyof WorkerOptions, (value: string | undefined) => string> = {
  backend: (v) => (v ? `the backend to ${v}` : 'the backend back to the best one available'),
  calibrate: (v) => `how the backend is chosen to calibrate=${v ?? 'auto'}`,
  assetBase: (v) => (v ? `the folder of the plate’s files to ${v}` : 'the plate’s files back to its own'),
  workerUrl: (v) => (v ? `the worker’s script to ${v}` : 'the worker’s script back to its own'),
};

export interface LiveActions {
  settings(patch: Partial<RunSettings>): void;
  autorun(): void;
}

/** Acts on changed options; returns the note about a replaced worker, if one was replaced. */
export function useLiveOptions(options: PlateOptions, act: LiveActions): string | null {
  const seen = useRef({
    settings: settingsOf(options),
    autorun: options.autorun ?? false,
    worker: pickWorker(options),
  });
  const [note, setNote] = useState<string | null>(null);
  const { autorun, backend, calibrate, assetBase, workerUrl } = options;
  // The actions change on every render; only a changed option acts, with the actions of its render.
  // useEffectEvent's job, done with a ref (React exports useEffectEvent from 19.2 only; the package
  // takes React 18 and 19): the latest render's handler, put in place before any effect runs.
  const onChange = useRef((_now: typeof seen.current) => {});
  useInsertionEffect(() => {
    onChange.current = (now) => {
      const was = seen.current;
      seen.current = now;
      const patch = Object.fromEntries(
        Object.entries(now.settings).filter(([k, v]) => was.settings[k as keyof RunSettings] !== v),
      ) as Partial<RunSettings>;
      if (Object.keys(patch).length > 0) act.settings(patch);
      if (now.autorun && !was.autorun) act.autorun();
      const changed = WORKER_OPTIONS.filter((k) => now.worker[k] !== was.worker[k]);
      if (changed.length > 0) {
        const what = changed.map((k) => CHANGE[k](now.worker[k])).join(' and ');
        setNote(
          `The host page changed ${what}: that needs a new trainer, which is starting now. Your settings stay as they were; the runs so far are no longer on the charts.`,
        );
      }
    };
  });

  // The settings as one value (the table's choices are strings, numbers and booleans), so a new
  // options object with the same settings acts on nothing.
  const settingsKey = JSON.stringify(settingsOf(options));
  useEffect(() => {
    const worker = { backend, calibrate, assetBase, workerUrl };
    onChange.current({ settings: JSON.parse(settingsKey) as RunSettings, autorun: autorun ?? false, worker });
  }, [settingsKey, autorun, backend, calibrate, assetBase, workerUrl]);

  return note;
}

function pickWorker(o: PlateOptions): WorkerOptions {
  return { backend: o.backend, calibrate: o.calibrate, assetBase: o.assetBase, workerUrl: o.workerUrl };
}
