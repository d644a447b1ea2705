/**
 * One line at the top of the figure for a reader who has not been here before: the two charts
 * first, the rest later. A line, not a dialog, so a reader who knows the way reads past it; off
 * the paper, like every other word about what to press.
 */
export function FirstPath() {
  return (
    <p className="first-path">
      First time here? Press Run and watch the two charts below, held-out success and mean reward. Come back for the
      rest under them: the switches that break the plate’s terms, the pipeline, a practitioner’s charts, the two-call
      world, a step’s time, one step taken apart.
    </p>
  );
}
