/**
 * The plate's options, shared by the page's URL, the React component's props and the custom
 * element's attributes. A bad value is ignored and explained in a note, never a crash.
 *
 *   ?faulty=1&seed=7&steps=10&backend=wasm&autorun=1&embed=1&xref=https://example.org/{ref}
 */
import { GRPO } from '../config';
import { BACKENDS, isBackendName, type BackendName } from '../worker/protocol';

export interface PlateOptions {
  /** URL pattern for cross-references, `{ref}` replaced by e.g. "XIX.5"; plain text without one. */
  xrefPattern?: string;
  /** Start training as soon as the trainer is ready. */
  autorun?: boolean;
  /** Start with the faulty calculator. */
  faulty?: boolean;
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

export function isXrefPattern(value: string): boolean {
  return value.includes('{ref}') && /^(https?:\/\/|\/|\.{0,2}\/)/.test(value);
}

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
      case 'backend':
        if (isBackendName(value)) options.backend = value;
        else ignore(key, value, `one of ${BACKENDS.join(', ')}`);
        break;
      case 'xref':
        if (isXrefPattern(value)) options.xrefPattern = value;
        else ignore(key, value, 'an http(s) or relative URL containing {ref}');
        break;
    }
  }
  return { options, notes };
}
