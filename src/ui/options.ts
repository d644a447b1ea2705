/**
 * The plate's options, from three places: the standalone page's URL, the custom element's
 * attributes and the React component's props. Every value is checked here, on the main thread,
 * before anything reaches the worker: a bad one is ignored and named in a note that the status
 * line shows ("Ignored steps={100}: expected a whole number from 1 to 40."); nothing breaks.
 *
 *   ?start=pretrained&faulty=1&masking=off&advantage=raw&temperature=1.5&grader=crash-pass&seed=7
 *   &steps=10&backend=wasm&calibrate=off&autorun=1&every-length=1&embed=1&xref=/volume/{ref}/
 *
 * Links and files are judged by resolving them, as the browser will: a cross-reference pattern
 * from the URL must stay on the page's own site (anyone can write a URL; only the embedding site
 * writes attributes and props), and a worker must come from the page's origin.
 */
import { GRPO } from '../config';
import { BACKENDS, CALIBRATE_MODES, type BackendName, type CalibrateMode } from '../protocol/backends';
import { agentRefusal } from '../env/world';
import { MAX_SEED } from '../protocol/guards';
import {
  choiceOfText,
  expectedTexts,
  isChoice,
  PLATE_SETTINGS,
  SETTING_KEYS,
  SETTINGS,
  type RunSettings,
  type SettingKey,
} from '../pipeline/settings';

/** The plate's options: the reader's run settings (pipeline/settings.ts, where each is documented), then the rest. */
export interface PlateOptions extends Partial<RunSettings> {
  /** URL pattern for cross-references, `{ref}` replaced by e.g. "XIX.5"; plain text without one. */
  xrefPattern?: string;
  /** Start training as soon as the trainer is ready. */
  autorun?: boolean;
  /** With autorun: run the held-fixed agent on every length it plays, one after another (the figure's Run every length). */
  everyLength?: boolean;
  seed?: number;
  /** GRPO steps of a run, 1 to 40 (the charts' frame). */
  steps?: number;
  /** Force a tfjs backend instead of the best available one. */
  backend?: BackendName;
  /** How the worker chooses a backend: race those on hardware (default), race software GPUs too, or the fixed order. */
  calibrate?: CalibrateMode;
  /** Inside an iframe: no page chrome, and the height is posted to the parent. */
  embed?: boolean;
  /** Where a copy of the package's folder (dist-lib/plate-<version>/) is, to load the plate's files from. */
  assetBase?: string;
  /** The training worker's module script, where the site serves it apart from the folder. */
  workerUrl?: string;
}

export interface ParsedOptions {
  options: PlateOptions;
  notes: string[];
}

/** Where a value came from: it decides how a note quotes it, and which hosts a link may name. */
export type Source = 'url' | 'attribute' | 'prop';

/** A check: the value it stands for, or a phrase for the note ("expected …"). */
type Check<T> = (x: unknown, source: Source, base: string) => { ok: T } | { expected: string };

/**
 * A boolean attribute as HTML reads it: present is on, whatever its value (`autorun`,
 * `autorun="autorun"`, as Hugo, Jekyll and XHTML-style pages write it, `autorun="true"`), but for
 * the words a page writes to say no (docs/embedding.md). The URL keeps its own forms: 1 or 0.
 */
const OFF_WORDS = ['false', '0', 'off'];
const attributeOn = (x: unknown): boolean => typeof x !== 'string' || !OFF_WORDS.includes(x.toLowerCase());

const flag: Check<boolean> = (x, source) => {
  if (source === 'prop') return typeof x === 'boolean' ? { ok: x } : { expected: 'true or false' };
  if (source === 'attribute') return { ok: attributeOn(x) };
  if (x === '1' || x === 'true' || x === '') return { ok: true };
  if (x === '0' || x === 'false') return { ok: false };
  return { expected: '0 or 1' };
};

const oneOf =
  <T extends string | number>(values: readonly T[]): Check<T> =>
  (x, source) => {
    const hit = values.find((v) => (source === 'prop' ? v === x : String(v) === x));
    return hit === undefined ? { expected: `one of ${values.join(', ')}` } : { ok: hit };
  };

const whole =
  (min: number, max: number): Check<number> =>
  (x, source) => {
    const n = source === 'prop' ? x : typeof x === 'string' && /^\d+$/.test(x) ? Number(x) : NaN;
    return typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max
      ? { ok: n }
      : { expected: `a whole number from ${min} to ${max}` };
  };

/** A run setting: one of its row's choices, as the URL and the attribute write them (pipeline/settings.ts). */
const setting =
  <K extends SettingKey>(key: K): Check<RunSettings[K]> =>
  (x, source) => {
    if (source === 'prop') {
      if (isChoice(key, x)) return { ok: x };
      const choices = SETTINGS[key].choices as readonly unknown[];
      return { expected: typeof choices[0] === 'boolean' ? 'true or false' : `one of ${choices.join(', ')}` };
    }
    if (source === 'attribute' && typeof SETTINGS[key].choices[0] === 'boolean')
      return { ok: attributeOn(x) as RunSettings[K] };
    const hit = typeof x === 'string' ? choiceOfText(key, x) : undefined;
    return hit === undefined ? { expected: expectedTexts(key) } : { ok: hit };
  };

/** `value` resolved as the browser will resolve it, or null if it is not a URL at all. */
function resolve(value: string, base: string): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}

const xref: Check<string> = (x, source, base) => {
  const expected = 'an http(s) or relative URL containing {ref}';
  if (typeof x !== 'string' || !x.includes('{ref}')) return { expected };
  const url = resolve(x.replaceAll('{ref}', 'XIX.5'), base);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return { expected };
  const site = new URL(base).origin;
  // `/%09/evil.example/{ref}` reads as a path, but a tab is dropped as the URL is parsed.
  if (source === 'url' && url.origin !== site) {
    return {
      expected: `a link on this site (${site}); it leads to ${url.host}. A site that embeds the plate may link elsewhere with its xref-pattern attribute or xrefPattern prop`,
    };
  }
  return { ok: x };
};

const folder: Check<string> = (x, _source, base) => {
  const url = typeof x === 'string' && x !== '' ? resolve(x, base) : null;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash)
    return { expected: 'an http(s) or relative folder URL, without ?query or #fragment' };
  return { ok: x as string };
};

const worker: Check<string> = (x, _source, base) => {
  const url = typeof x === 'string' && x !== '' ? resolve(x, base) : null;
  const site = new URL(base).origin;
  if (!url || !['https:', 'http:', 'blob:'].includes(url.protocol))
    return { expected: 'the URL of a JavaScript module' };
  // Browsers refuse a worker script from another origin (a SecurityError at `new Worker`).
  if (url.origin !== site)
    return { expected: `a script from this page’s origin (${site}), as browsers start no worker from another` };
  return { ok: x as string };
};

type Checked = Required<PlateOptions>;
type Checks = { [K in keyof Checked]: Check<Checked[K]> };
const SETTING_CHECKS = Object.fromEntries(SETTING_KEYS.map((k) => [k, setting(k)])) as Pick<Checks, SettingKey>;
const CHECKS: Checks = {
  xrefPattern: xref,
  autorun: flag,
  everyLength: flag,
  ...SETTING_CHECKS,
  seed: whole(0, MAX_SEED),
  steps: whole(1, GRPO.steps),
  backend: oneOf(BACKENDS),
  calibrate: oneOf(CALIBRATE_MODES),
  embed: flag,
  assetBase: folder,
  workerUrl: worker,
};

/** Each source's name for an option: the URL's key, the element's attribute (null: not taken there). */
type Names = { url: string | null; attribute: string | null };
const SETTING_NAMES = Object.fromEntries(
  SETTING_KEYS.map((k) => [k, { url: SETTINGS[k].name, attribute: SETTINGS[k].name }]),
) as Record<SettingKey, Names>;
export const NAMES: { [K in keyof PlateOptions]-?: Names } = {
  xrefPattern: { url: 'xref', attribute: 'xref-pattern' },
  autorun: { url: 'autorun', attribute: 'autorun' },
  everyLength: { url: 'every-length', attribute: 'every-length' },
  ...SETTING_NAMES,
  seed: { url: 'seed', attribute: 'seed' },
  steps: { url: 'steps', attribute: 'steps' },
  backend: { url: 'backend', attribute: 'backend' },
  calibrate: { url: 'calibrate', attribute: 'calibrate' },
  embed: { url: 'embed', attribute: null },
  // A URL names no files or scripts to load: only the embedding site chooses those.
  assetBase: { url: null, attribute: 'asset-base' },
  workerUrl: { url: null, attribute: 'worker-url' },
};

const KEYS = Object.keys(CHECKS) as (keyof PlateOptions)[];

/** How a note quotes the value: `seed=1.5` (URL), `seed="1.5"` (attribute), `seed={1.5}` (prop). */
function quote(name: string, x: unknown, source: Source): string {
  if (source === 'url') return `${name}=${String(x)}`;
  if (source === 'attribute') return `${name}="${String(x)}"`;
  return `${name}={${typeof x === 'string' ? JSON.stringify(x) : String(x)}}`;
}

/**
 * Checks the options in `given` (keyed by PlateOptions' names; values as `source` writes them)
 * against `base`, the document's URL; `undefined` means not given.
 */
export function checkOptions(
  given: Partial<Record<keyof PlateOptions, unknown>>,
  source: Source,
  base: string,
): ParsedOptions {
  const options: Record<string, unknown> = {};
  const notes: string[] = [];
  // In the order given (the URL's order), so the notes read as the address does.
  for (const key of Object.keys(given) as (keyof PlateOptions)[]) {
    const x = given[key];
    if (x === undefined || !(key in CHECKS)) continue;
    const result = (CHECKS[key] as Check<unknown>)(x, source, base);
    const name = source === 'prop' ? key : source === 'url' ? NAMES[key].url! : NAMES[key].attribute!;
    if ('ok' in result) options[key] = result.ok;
    else notes.push(`Ignored ${quote(name, x, source)}: expected ${result.expected}.`);
  }
  // A choice of agent that cannot play the episode asked for is refused as a bad value is.
  const o = options as PlateOptions;
  const refused = o.agent && agentRefusal({ episode: o.episode ?? PLATE_SETTINGS.episode, agent: o.agent });
  if (refused) {
    const name = source === 'prop' ? 'agent' : SETTINGS.agent.name;
    notes.push(`Ignored ${quote(name, given.agent, source)}: ${refused}.`);
    delete o.agent;
  }
  return { options: o, notes };
}

/** Reads options from a query string against the page's own URL; other keys are the host's. */
export function parseUrlOptions(search: string, pageUrl: string): ParsedOptions {
  const given: Partial<Record<keyof PlateOptions, string>> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    const key = KEYS.find((k) => NAMES[k].url === name);
    if (key) given[key] = value;
  }
  return checkOptions(given, 'url', pageUrl);
}

/** The element's attributes, read through the same checks. */
export function parseAttributes(get: (name: string) => string | null, base: string): ParsedOptions {
  const given: Partial<Record<keyof PlateOptions, string>> = {};
  for (const key of KEYS) {
    const name = NAMES[key].attribute;
    const value = name === null ? null : get(name);
    if (value !== null) given[key] = value;
  }
  return checkOptions(given, 'attribute', base);
}

/** The document's URL, the base every relative link and file resolves against. */
export const documentBase = (): string => (typeof document === 'undefined' ? 'http://localhost/' : document.baseURI);
