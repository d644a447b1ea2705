/**
 * Where a run starts: the shipped agent, or earlier in the pipeline (trained here); and the seed
 * of the next run.
 */
import { DEFAULT_SEED } from '../../../config';
import { seedPhrase } from '../curves';
import { SettingRadios, settingControl, type SettingProps } from '../SettingControl';
import type { WorkerStatus } from '../types';

/**
 * The seed of the next run: the reference seed nearest the plate by default, or one the reader
 * draws (a seed draws every stage's random stream: which sums, which samples, which lies).
 */
export function SeedChoice(p: { status: WorkerStatus; seed: number; onSeed: (seed: number) => void }) {
  const off = p.status === 'dead';
  const draw = () => {
    let next = p.seed;
    while (next === p.seed) next = 1 + Math.floor(Math.random() * 9999);
    p.onSeed(next);
  };
  return (
    <p className="seed-choice">
      <span data-testid="seed">Next run: {seedPhrase(p.seed)}.</span>{' '}
      <button type="button" aria-disabled={off} onClick={() => off || draw()}>
        Draw another seed
      </button>
      {p.seed !== DEFAULT_SEED && (
        <>
          {' '}
          <button type="button" aria-disabled={off} onClick={() => off || p.onSeed(DEFAULT_SEED)}>
            Back to seed {DEFAULT_SEED}
          </button>
        </>
      )}
    </p>
  );
}

/** Where a run starts: the shipped agent, or earlier in the pipeline (trained here). */
export function StartChoice(p: SettingProps) {
  return <SettingRadios {...settingControl(p, 'start')} />;
}
