/** The plate's stated numbers beside the reader's own run. */
import type { StatedNumber } from '../../../plate/types';
import { yourRun } from '../curves';
import type { RunView } from '../types';

export function NumbersTable({
  heading,
  rows,
  runs,
}: {
  heading: string;
  rows: readonly StatedNumber[];
  runs: readonly RunView[];
}) {
  return (
    <table className="numbers">
      <caption>{heading}</caption>
      <thead>
        <tr>
          <th scope="col">readout</th>
          <th scope="col">plate</th>
          <th scope="col">your run</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.readout}>
            <th scope="row">{r.readout}</th>
            <td>{r.plate}</td>
            <td>{yourRun(r, runs)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
