import { useId } from 'react';
import { formatDateTime } from '../../../shared/dates';
import type { ProductChange } from '../../../shared/products';
import { DataTable } from '../../components/data-table';
import { useFormat } from '../../lib/shop';

/** What changed (in a product, in the settings), when and by whom, newest first; `empty` says there is nothing yet. */
export function ChangeHistory({ history, empty }: { history: readonly ProductChange[]; empty: string }) {
  const format = useFormat();
  const titleId = useId();
  return (
    <div className="card change-history">
      <h2 id={titleId}>History</h2>
      {history.length === 0 ? (
        <p>{empty}</p>
      ) : (
        <DataTable labelledBy={titleId}>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">By</th>
              <th scope="col">What</th>
            </tr>
          </thead>
          <tbody>
            {history.map((change, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the history only grows, at its top
              <tr key={history.length - index}>
                <td>{formatDateTime(change.at, format.locale)}</td>
                <td>{change.by}</td>
                <td>{change.what}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </div>
  );
}
