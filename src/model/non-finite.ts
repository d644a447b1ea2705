/** A training step whose loss was NaN or infinite: the weights were left as they were. */
export class NonFiniteLossError extends Error {
  constructor(
    readonly step: number,
    readonly value: number,
    /** The stage, when it is not GRPO's: "fine-tuning", "pre-training". */
    readonly stage?: string,
  ) {
    super(
      `the loss became ${value} at ${stage ? `${stage} ` : ''}step ${step}; the run stopped before applying that update`,
    );
    this.name = 'NonFiniteLossError';
  }
}
