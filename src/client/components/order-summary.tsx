import type { ReactNode } from 'react';
import { formatCents } from '../../shared/money';
import type { OrderLine } from '../../shared/orders';
import { moneyRows, type OrderMoney, taxNoteOf } from '../../shared/pricing';
import { itemWithSize } from '../../shared/sizes';
import { useFormat } from '../lib/shop';

interface OrderSummaryProps {
  /** The id of the heading that names the table. */
  labelledBy: string;
  lines: readonly OrderLine[];
  money: OrderMoney;
  /** What to say under a line, if anything (checkout: a row that cannot be ordered, and its remove button). */
  noteOn?: (line: OrderLine, index: number) => ReactNode;
}

/** What is ordered and what it costs: a line per item, then the rows of its money (pricing.ts), and what of tax. */
export function OrderSummary({ labelledBy, lines, money, noteOn }: OrderSummaryProps) {
  // The lines are in the money's currency, written as the shop writes amounts.
  const { locale } = useFormat();
  return (
    <>
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
              <td className="number">{formatCents(line.priceCents, { currency: money.currency, locale })}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          {moneyRows(money, locale).map((row) => (
            <tr key={row.label} className={row.isTotal ? 'grand-total' : undefined}>
              <th scope="row">{row.label}</th>
              <td className="number">{row.amount}</td>
            </tr>
          ))}
        </tfoot>
      </table>
      {taxNoteOf(money) && <p>{taxNoteOf(money)}</p>}
    </>
  );
}
