/**
 * The plate's options, shared by the page's URL, the React component's props and the custom
 * element's attributes. A bad value is ignored and explained in a note, never a crash.
 *
 *   ?start=pretrained&faulty=1&masking=off&advantage=raw&temperature=1.5&grader=crash-pass&seed=7&steps=10
 *   &backend=wasm&autorun=1&embed=1&xref=https://example.org/{ref}
 */
import { GRPO } from '../config';
import { BACKENDS, isBackendName, type BackendName } from '../protocol/backends';
import { type Advantage, type Grader, type StartFrom, type Temperature } from '../protocol/messages';
import { ADVANTAGES, GRADERS, STARTS, TEMPERATURES } from '../pipeline/stages';

export interface PlateOptions {
  /** URL pattern for cross-references, `{ref}` replaced by e.g. "XIX.5"; plain text without one. */
  xrefPattern?: string;
  /** Start training as soon as the trainer is ready. */
  autorun?: boolean;
  /** Where a run begins: the fine-tuned agent (default), the worksheet model, random weights. */
  start?: StartFrom;
  /** Start with the faulty calculator. */
  faulty?: boolean;
  /** Observation masking (default on): off trains on the calculator's result characters too. */
  masking?: boolean;
  /** The advantage: group-relative (default), or the raw reward. */
  advantage?: Advantage;
  /** Sampling temperature of GRPO's episodes: 0.5, 1 (default) or 1.5. */
  temperature?: Temperature;
  /** Who pays GRPO's training episodes: the exact grader (default) or a bug; held-out is always graded exactly. */
  grader?: Grader;
  seed?: number;
  /** GRPO steps of a run, 1 to 40 (the charts' frame). */
  steps?: number;
  /** Force a tfjs backend instead of the best available one. */
  backend?: BackendName;
  /** Inside an iframe: no page chrome, and the height is posted to the parent. */
  embed?: boolean;
}

export interface ParsedOptions {
  options: PlateOptions;
  notes: string[];
}

const MAX_SEED = 2 ** 31 - 1;

function flag(value: string): boolean | null {
  if (value === '1' || value === 'true' || value === '') return true;
  if (value === '0' || value === 'false') return false;
  return null;
}

function integer(value: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}

/**
 * How a cross-reference pattern links: 'absolute' (http(s), or `//host/…`, which browsers read
 * as another host, as they do `/\host/…` and `\\host/…`), 'relative' (a path on this site), or
 * null when it is not a usable pattern (no `{ref}`, another scheme).
 */
export function xrefKind(value: string): 'absolute' | 'relative' | null {
  if (!value.includes('{ref}')) return null;
  if (/^https?:\/\//i.test(value) || /^[/\\]{2}/.test(value)) return 'absolute';
  if (/^(\/|\.{1,2}\/)/.test(value)) return 'relative';
  return null;
}

export const isXrefPattern = (value: string): boolean => xrefKind(value) !== null;

/** The pattern as a link target: backslashes that browsers read as slashes written as slashes. */
export const normalXref = (value: string): string => value.replace(/^[/\\]{2}/, '//');

/** Reads options from a query string; unknown keys are left alone (the host may use them). */
export function parseUrlOptions(search: string): ParsedOptions {
  const params = new URLSearchParams(search);
  const options: PlateOptions = {};
  const notes: string[] = [];
  const ignore = (key: string, value: string, expected: string) => notes.push(`Ignored ${key}=${value}: expected ${expected}.`);

  for (const [key, value] of params) {
    switch (key) {
      case 'faulty':
      case 'autorun':
      case 'embed': {
        const b = flag(value);
        if (b === null) ignore(key, value, '0 or 1');
        else options[key] = b;
        break;
      }
      case 'seed': {
        const n = integer(value, 0, MAX_SEED);
        if (n === null) ignore(key, value, `a whole number from 0 to ${MAX_SEED}`);
        else options.seed = n;
        break;
      }
      case 'steps': {
        const n = integer(value, 1, GRPO.steps);
        if (n === null) ignore(key, value, `a whole number from 1 to ${GRPO.steps}`);
        else options.steps = n;
        break;
      }
      case 'start':
        if ((STARTS as readonly string[]).includes(value)) options.start = value as StartFrom;
        else ignore(key, value, `one of ${STARTS.join(', ')}`);
        break;
      case 'masking':
        if (value === 'on' || value === 'off') options.masking = value === 'on';
        else ignore(key, value, 'on or off');
        break;
      case 'advantage':
        if ((ADVANTAGES as readonly string[]).includes(value)) options.advantage = value as Advantage;
        else ignore(key, value, `one of ${ADVANTAGES.join(', ')}`);
        break;
      case 'temperature': {
        const t = TEMPERATURES.find((x) => String(x) === value);
        if (t === undefined) ignore(key, value, `one of ${TEMPERATURES.join(', ')}`);
        else options.temperature = t;
        break;
      }
      case 'grader':
        if ((GRADERS as readonly string[]).includes(value)) options.grader = value as Grader;
        else ignore(key, value, `one of ${GRADERS.join(', ')}`);
        break;
      case 'backend':
        if (isBackendName(value)) options.backend = value;
        else ignore(key, value, `one of ${BACKENDS.join(', ')}`);
        break;
      case 'xref':
        if (isXrefPattern(value)) options.xrefPattern = normalXref(value);
        else ignore(key, value, 'an http(s) or relative URL containing {ref}');
        break;
    }
  }
  return { options, notes };
}
