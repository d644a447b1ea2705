/**
 * One line at the top of the figure for a reader who has not been here before: the two charts
 * first, the rest one click away or beside the plate's words. A line, not a dialog, so a reader who knows the way reads past it; off
 * the paper, like every other word about what to press.
 */
export function FirstPath() {
  return (
    <p className="first-path">
      First time here? Press Run and watch the two charts below, held-out success and mean reward. Each part under them
      opens with a click; the closing claims and a step’s time sit beside the plate’s words further down.
    </p>
  );
}
