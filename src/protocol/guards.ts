/** Checks on messages that cross the thread boundary: the worker trusts nothing it is sent. */
import { CALIBRATE_MODES, isBackendName } from './backends';
import { GRPO } from '../config';
import { inRange } from '../env/sums';
import { BACKEND_MODULES, RUN_BEGINS, WASM_FILES, type AskQuestion, type Command } from './messages';
import { isChoice, isRunSettings, type RunConfig } from '../pipeline/settings';

type Loose = Record<string, unknown>;
/** Seeds are 31-bit: the page's URL option and the PRNG take 0 to 2^31 − 1. */
export const MAX_SEED = 2 ** 31 - 1;
const isWhole = (x: unknown, min: number, max: number): boolean =>
  Number.isInteger(x) && (x as number) >= min && (x as number) <= max;
const isObject = (x: unknown): x is Loose => typeof x === 'object' && x !== null;
const isUrl = (x: unknown): boolean => typeof x === 'string' && x.length > 0;
const isSource = (x: unknown): boolean => isUrl(x) || (isObject(x) && isObject(x.manifest) && isUrl(x.weights));

/** Every setting one of its choices (pipeline/settings.ts), a 31-bit seed, 1 to 40 GRPO steps. */
function isRunConfig(x: unknown): x is RunConfig {
  return isObject(x) && isRunSettings(x) && isWhole(x.seed, 0, MAX_SEED) && isWhole(x.steps, 1, GRPO.steps);
}

/** A sum of the world's range, a calculator setting and a temperature the figure offers. */
function isAskQuestion(x: unknown): x is AskQuestion {
  if (!isObject(x) || !isObject(x.sum)) return false;
  return (
    Number.isInteger(x.id) &&
    inRange(x.sum as { a: number; b: number }) &&
    typeof x.faulty === 'boolean' &&
    isChoice('temperature', x.temperature)
  );
}

export function isCommand(x: unknown): x is Command {
  if (!isObject(x)) return false;
  switch (x.type) {
    case 'init':
      return (
        isObject(x.checkpoints) &&
        isSource(x.checkpoints.agent) &&
        isSource(x.checkpoints.pretrained) &&
        isSource(x.checkpoints.agentThreeCalls) &&
        isObject(x.wasm) &&
        WASM_FILES.every((f) => isUrl((x.wasm as Loose)[f])) &&
        (x.backends === undefined ||
          (isObject(x.backends) && BACKEND_MODULES.every((b) => isUrl((x.backends as Loose)[b])))) &&
        (x.backend === undefined || isBackendName(x.backend)) &&
        (x.calibrate === undefined || (CALIBRATE_MODES as readonly unknown[]).includes(x.calibrate))
      );
    case 'start':
      return isRunConfig(x.config) && (x.begin === undefined || (RUN_BEGINS as readonly unknown[]).includes(x.begin));
    case 'configure':
      return isRunConfig(x.config);
    case 'ask':
      return isAskQuestion(x.question);
    case 'pause':
    case 'resume':
    case 'step':
    case 'reset':
      return true;
    default:
      return false;
  }
}
