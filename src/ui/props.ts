/**
 * The plate's props and the custom element's attributes, documented once: docs/embedding.md's
 * table is checked against this (test/ui/props.test.ts), and TypeScript checks this against the
 * props' type, so neither can drift.
 */
import { DEFAULT_SEED } from '../config';
import { SETTING_KEYS, SETTINGS, type SettingKey } from '../pipeline/settings';
import type { MultiTurnRLPlateProps } from './MultiTurnRLPlate';

export interface PropDoc {
  /** The element's attribute, or null for a prop the element does not take. */
  attribute: string | null;
  type: string;
  doc: string;
}

/** A setting's prop type as the table writes it: its choices (a switch is a boolean attribute, as HTML's). */
function settingType(key: SettingKey): string {
  const choices = SETTINGS[key].choices as readonly (string | number | boolean)[];
  if (typeof choices[0] === 'boolean') return 'boolean';
  return choices.map((c) => (typeof c === 'string' ? `'${c}'` : c)).join(' \\| ');
}

const SETTING_PROPS = Object.fromEntries(
  SETTING_KEYS.map((k) => [k, { attribute: SETTINGS[k].name, type: settingType(k), doc: SETTINGS[k].doc }]),
) as Record<SettingKey, PropDoc>;

export const PROPS: Record<keyof MultiTurnRLPlateProps, PropDoc> = {
  xrefPattern: {
    attribute: 'xref-pattern',
    type: 'string',
    doc: 'URL pattern for cross-references, `{ref}` replaced by e.g. `XIX.5`; without one they are plain text',
  },
  autorun: { attribute: 'autorun', type: 'boolean', doc: 'start training as soon as the trainer is ready' },
  everyLength: {
    attribute: 'every-length',
    type: 'boolean',
    doc: 'with `autorun`: train the agent the closing claims hold fixed on every length it plays, one run after another (the figure’s “Run every length”), instead of one run',
  },
  ...SETTING_PROPS,
  seed: {
    attribute: 'seed',
    type: 'number',
    doc: `seeds every stage of a run (default ${DEFAULT_SEED}: [why](results.md#the-live-run-against-the-plate))`,
  },
  steps: { attribute: 'steps', type: 'number', doc: 'GRPO steps of a run, 1 to 40 (default 40)' },
  backend: {
    attribute: 'backend',
    type: "'webgpu' \\| 'webgl' \\| 'wasm' \\| 'cpu'",
    doc: 'try this tfjs backend first',
  },
  calibrate: {
    attribute: 'calibrate',
    type: "'auto' \\| 'all' \\| 'off'",
    doc: 'how the worker chooses a backend: `auto` (default) times a calibration step on each backend that runs on hardware and keeps the fastest, remembered per browser and hardware; `all` races software GPUs too and remembers nothing; `off` keeps the fixed order WebGPU, WebGL, WASM, CPU',
  },
  embed: {
    attribute: null,
    type: 'boolean',
    doc: 'inside an iframe: no page chrome (the standalone page sets it from `?embed=1`)',
  },
  assetBase: {
    attribute: 'asset-base',
    type: 'string',
    doc: 'where your site serves a copy of the package’s folder `dist-lib/plate-<version>/` ([hosting](#hosting-the-files-yourself))',
  },
  workerUrl: {
    attribute: 'worker-url',
    type: 'string',
    doc: 'where your site serves the folder’s `training.worker.mjs`, on the page’s own origin ([hosting](#hosting-the-files-yourself))',
  },
  notes: {
    attribute: null,
    type: 'readonly string[]',
    doc: 'sentences shown in the status line (the standalone page uses it for ignored URL options)',
  },
  reproduceUrl: {
    attribute: null,
    type: '(config: LinkConfig) => string',
    doc: 'makes the link that sets a run’s configuration up again in your page (with `config.everyLength`, one that runs every length again, as `every-length` does); without it the plate offers no such link',
  },
};

/** docs/embedding.md's table, as markdown. */
export function propsTable(): string {
  const rows = Object.entries(PROPS).map(
    ([prop, d]) => `| \`${prop}\` | ${d.attribute ? `\`${d.attribute}\`` : '—'} | \`${d.type}\` | ${d.doc} |`,
  );
  return ['| prop | attribute | type | what it does |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
