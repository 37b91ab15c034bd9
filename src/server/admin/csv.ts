import { setImmediate } from 'node:timers/promises';
import { addressLines } from '../../shared/address';
import { deliveryText, type Order, statusLabels } from '../../shared/orders';
import { discountOf, type OrderMoney } from '../../shared/pricing';
import { csvAmount, csvHeader, csvText } from '../books/csv';
import { shopTime } from '../books/shop-time';
import { regionName } from '../places/places';

/**
 * The orders for the books (docs/product.md §11): one row per order line, a spreadsheet's CSV (RFC 4180: quoted
 * fields, CRLF), with a byte-order mark so that spreadsheets read it as UTF-8.
 */
const columns = [
  'Order',
  'Date',
  'E-mail',
  'Name',
  'Address',
  'Item no.',
  'Item',
  'Size',
  'Price',
  'Discount code',
  'Discount',
  'Shipping',
  'Total',
  'Status',
  'Delivery',
];

/** The shop an export is for: the time zone its days are in (each order's amounts are in its own currency). */
export interface CsvShop {
  timeZone: string;
}

/** What a discount code took off the goods (negative; 0 for free shipping), or nothing for an order without one. */
function discountAmount(money: OrderMoney): string {
  const discount = discountOf(money);
  return discount ? csvAmount(discount.amountCents, money.currency) : '';
}

/**
 * The orders as CSV, streamed: the header, then each batch's rows as it comes, one batch in memory at a time. The
 * order's own amounts (its discount, shipping, total, tax) and delivery are on its first row only, so that summing a
 * column counts each order once; its other rows leave them empty. With `taxNames` (the names the exported orders'
 * tax lines carry), the rows end with the order's tax in all ('Tax') and one column per name; an export without tax
 * has the columns it always had.
 */
export function ordersCsv(
  taxNames: readonly string[],
  batches: AsyncIterable<readonly Order[]>,
  shop: CsvShop,
): ReadableStream<Uint8Array> {
  const iterator = batches[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const taxColumns = taxNames.length === 0 ? [] : ['Tax', ...taxNames];
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvHeader([...columns, ...taxColumns])));
    },
    async pull(controller) {
      // Other requests are answered between two batches: an export holds the event loop for one batch at most.
      await setImmediate();
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value.map((order) => orderRows(order, taxNames, shop)).join('')));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** An order's rows of the export, each ended by CRLF. */
function orderRows(order: Order, taxNames: readonly string[], { timeZone }: CsvShop): string {
  const { money } = order;
  const { currency } = money;
  // The order's tax in all and its line of each name (one line a name), as its money holds them.
  const taxCells = (first: boolean): string[] => {
    if (taxNames.length === 0) return [];
    if (!first) return ['', ...taxNames.map(() => '')];
    const lineOf = (name: string) => money.taxLines?.find((line) => line.name === name)?.amountCents ?? 0;
    return [money.taxCents, ...taxNames.map(lineOf)].map((cents) => csvAmount(cents, currency));
  };
  // The order's own cells, written once for all its rows (the shop's time of day is the costly one).
  const ofOrder = [
    csvText(order.number),
    csvText(shopTime(order.placedAt, timeZone)),
    csvText(order.email),
    csvText(order.address.fullName),
    csvText(addressLines(order.address, regionName).slice(1).join(', ')),
  ].join(',');
  const status = csvText(statusLabels[order.status]);
  return order.lines
    .map(
      (line, index) =>
        `${[
          ofOrder,
          csvText(line.itemid),
          csvText(line.name),
          csvText(line.size ?? ''),
          csvAmount(line.priceCents, currency),
          index === 0 ? csvText(discountOf(money)?.code ?? '') : '',
          index === 0 ? discountAmount(money) : '',
          index === 0 ? csvAmount(money.shippingCents, currency) : '',
          index === 0 ? csvAmount(money.totalCents, currency) : '',
          status,
          csvText(index === 0 ? deliveryText(order) : ''),
          ...taxCells(index === 0),
        ].join(',')}\r\n`,
    )
    .join('');
}
