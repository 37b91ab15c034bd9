import type { CartItem } from '../../../shared/api';
import { formatCents, formatTotal } from '../../../shared/money';
import { itemWithSize } from '../../../shared/sizes';
import { useFormat } from '../../lib/shop';

interface CartTableProps {
  /** The id of the heading that names the table. */
  labelledBy: string;
  items: CartItem[];
  onDelete(item: CartItem): void;
}

export function CartTable({ labelledBy, items, onDelete }: CartTableProps) {
  const format = useFormat();
  return (
    <table className="cart-table" aria-labelledby={labelledBy}>
      <thead>
        <tr>
          <th scope="col" className="visually-hidden">
            No.
          </th>
          <th scope="col">Item</th>
          <th scope="col" className="number">
            Qty.
          </th>
          <th scope="col" className="number">
            Price
          </th>
          <th scope="col">
            <span className="visually-hidden">Remove</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((item, index) => (
          <tr key={item.id}>
            <td className="visually-hidden">{index + 1}</td>
            <td>
              {itemWithSize(item.name, item.size)}
              {!item.available && <span className="line-problem">No longer available</span>}
            </td>
            <td className="number">1</td>
            <td className="number">{formatCents(item.priceCents, format)}</td>
            <td className="action">
              <button
                type="button"
                className="button button-quiet"
                aria-label={`Delete ${itemWithSize(item.name, item.size)}`}
                onClick={() => onDelete(item)}
              >
                Delete
              </button>
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td className="visually-hidden" />
          <th scope="row" colSpan={2}>
            Total
          </th>
          <td className="number total">
            {formatTotal(
              items.map((item) => item.priceCents),
              format,
            )}
          </td>
          <td />
        </tr>
      </tfoot>
    </table>
  );
}
