/**
 * Why a run from random weights lands above the shipped agent: it pre-trains a worksheet model of
 * its own, and where fine-tuning lands depends mostly on the pre-training seed. The figures are
 * the sweep's in docs/results.md ("Does a recipe land near the plate's 77%?": held-out success
 * of fine-tunes at seeds 1–10 of each of pre-training seeds 1–5, `npm run sweep -- --seeds 1-10
 * --pretrain-seed N`). Pure; tested in Node.
 */
import { AGENT_RECIPE } from '../../../config';

/** The shipped worksheet model's fine-tunes: held-out success over fine-tuning seeds 1–10. */
const SHIPPED_MODEL_FINE_TUNES = '73–93%';
/** The four other pre-training seeds' fine-tunes: their medians. */
const OTHER_MODELS_MEDIANS = '92–95%';
/** The shipped agent's held-out success (`npm run eval`). */
const SHIPPED_AGENT = '80%';

/** The sentence beside a run from random weights at `seed`, for a reader who sees it end above the plate. */
export function scratchNote(seed: number): string {
  const shipped = AGENT_RECIPE.seed;
  if (seed === shipped)
    return (
      `From random weights at seed ${seed}, this run pre-trains as the shipped worksheet model was (seed ${shipped}), then fine-tunes at seed ${seed}. ` +
      `That model’s fine-tunes land at ${SHIPPED_MODEL_FINE_TUNES} held-out over ten fine-tuning seeds; the shipped agent is the one at seed ${AGENT_RECIPE.sftSeed} (${SHIPPED_AGENT}), so this run can start GRPO a few sums away from it.`
    );
  return (
    `From random weights, this run pre-trains a worksheet model of its own (seed ${seed}), not the shipped one (seed ${shipped}), and where fine-tuning lands depends mostly on that pre-training. ` +
    `Seed ${shipped}’s model was shipped because its fine-tunes land nearest the plate’s 77% (${SHIPPED_MODEL_FINE_TUNES} held-out); the four other seeds we tried land higher, ${OTHER_MODELS_MEDIANS} at the median. ` +
    `So a run from random weights most often starts GRPO above the shipped agent’s ${SHIPPED_AGENT}, with less left to learn.`
  );
}
