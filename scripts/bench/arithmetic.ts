// The engine's own speed on plain arithmetic, beside the plate's step time: a slow float loop is
// the engine's (some Firefox builds run a served page's float arithmetic ~50× slower than
// Chromium on the same machine, integers at full speed), a slow step with a fast loop is ours.

export interface ArithmeticBench {
  /** A double-precision multiply-add loop of 2 × 10⁷ steps (ms). */
  floatLoopMs: number;
  /** An integer loop of 10⁸ steps (ms). */
  intLoopMs: number;
}

/**
 * Runs where it is evaluated (a served page, through the bench's `evaluate`, or Node), so it is
 * self-contained: no closure over this module, and no inner named function (the scripts' loader
 * would wrap it in a helper the page does not have).
 */
export function arithmeticProbe(): ArithmeticBench {
  let t0 = performance.now();
  let s = 0;
  let x = 0.5;
  for (let i = 0; i < 2e7; i++) {
    s += x * 1.0000001;
    x = x * 0.9999999 + 1e-9;
  }
  const floatLoopMs = Math.round(performance.now() - t0);
  t0 = performance.now();
  let n = 0;
  for (let i = 0; i < 1e8; i++) n = (n + i * 7) | 0;
  const intLoopMs = Math.round(performance.now() - t0);
  // The results are used, so neither loop can be dropped.
  if (s === 0.123456789 || n === 123456789) console.log(s, n);
  return { floatLoopMs, intLoopMs };
}
