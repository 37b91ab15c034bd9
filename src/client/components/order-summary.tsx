import type { ReactNode } from 'react';
import { brand } from '../../shared/brand';
import { formatCents } from '../../shared/money';
import type { OrderLine } from '../../shared/orders';
import type { OrderMoney } from '../../shared/pricing';
import { itemWithSize } from '../../shared/sizes';

interface OrderSummaryProps {
  /** The id of the heading that names the table. */
  labelledBy: string;
  lines: readonly OrderLine[];
  totals: Pick<OrderMoney, 'subtotalCents' | 'shippingCents' | 'totalCents'>;
  /** What to say under a line, if anything (checkout: a row that cannot be ordered, and its remove button). */
  noteOn?: (line: OrderLine, index: number) => ReactNode;
}

/** What is ordered and what it costs: a line per item, then the subtotal, the shipping and the total. */
export function OrderSummary({ labelledBy, lines, totals, noteOn }: OrderSummaryProps) {
  return (
    <table className="data-table" aria-labelledby={labelledBy}>
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col" className="number">
            Price
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line, index) => (
          // Lines may repeat an item (one row per click); their place in the order tells them apart.
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is never reordered
          <tr key={index}>
            <td>
              {itemWithSize(line.name, line.size)}
              {noteOn?.(line, index)}
            </td>
            <td className="number">{formatCents(line.priceCents, brand)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Subtotal</th>
          <td className="number">{formatCents(totals.subtotalCents, brand)}</td>
        </tr>
        <tr>
          <th scope="row">Shipping</th>
          <td className="number">{totals.shippingCents === 0 ? 'Free' : formatCents(totals.shippingCents, brand)}</td>
        </tr>
        <tr className="grand-total">
          <th scope="row">Total</th>
          <td className="number">{formatCents(totals.totalCents, brand)}</td>
        </tr>
      </tfoot>
    </table>
  );
}
