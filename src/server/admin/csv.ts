import { setImmediate } from 'node:timers/promises';
import { addressLines } from '../../shared/address';
import { formatAmount } from '../../shared/money';
import { deliveryText, type Order, statusLabels } from '../../shared/orders';
import { discountOf, type OrderMoney } from '../../shared/pricing';
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

/**
 * A text cell, quoted. One that a spreadsheet would run as a formula (it starts with = + - @, a tab or a carriage
 * return) gets a leading apostrophe, so it shows as the text it is (OWASP, "CSV injection").
 */
export function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The shop an export is for: the time zone its days are in (each order's amounts are in its own currency). */
export interface CsvShop {
  timeZone: string;
}

/**
 * An amount as a plain number of the currency (302.99): a spreadsheet can add it up. Written with a decimal point
 * whatever the shop's locale, since a decimal comma would split the cell.
 */
export function csvAmount(cents: number, currency: string): string {
  return formatAmount(cents, { currency, locale: 'en-US' });
}

const localTimes = new Map<string, Intl.DateTimeFormat>();

/** `2026-11-24 17:03`, in the shop's time zone. */
export function shopTime(iso: string, timeZone: string): string {
  let localTime = localTimes.get(timeZone);
  if (localTime === undefined) {
    localTime = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    localTimes.set(timeZone, localTime);
  }
  const parts = Object.fromEntries(localTime.formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
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

/** A spreadsheet's CSV header line of the `columns`, after a byte-order mark so that spreadsheets read UTF-8. */
function csvHeader(columns: readonly string[]): string {
  return `\uFEFF${columns.map(csvText).join(',')}\r\n`;
}

/** A spreadsheet's CSV of the `columns` and the `rows` (each already written cell by cell, comma-separated). */
export function csvFile(columns: readonly string[], rows: readonly string[]): string {
  return csvHeader(columns) + rows.map((row) => `${row}\r\n`).join('');
}

/** The UTC offset of `timeZone` at `instant`, in ms (negative west of Greenwich). */
function offsetAt(instant: number, timeZone: string): number {
  const parts: Record<string, number> = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(instant)
      .map((part) => [part.type, Number(part.value)]),
  );
  const at = (type: string) => parts[type] ?? 0;
  const wall = Date.UTC(at('year'), at('month') - 1, at('day'), at('hour'), at('minute'), at('second'));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The days `from` to `to` (`2026-11-24`), both included, in the shop's time zone: [first instant, end) in epoch ms. */
export function shopDays(from: string, to: string, timeZone: string): [number, number] {
  const dayAfter = new Date(Date.parse(`${to}T00:00:00Z`) + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  return [startOfShopDay(from, timeZone), startOfShopDay(dayAfter, timeZone)];
}

/** The first instant of the day `date` (`2026-11-24`) in the shop's time zone, as epoch ms. */
export function startOfShopDay(date: string, timeZone: string): number {
  const midnightUtc = Date.parse(`${date}T00:00:00Z`);
  // Twice: the offset at the guess, not at UTC midnight, is the one that holds (a change of clocks in between).
  const guess = midnightUtc - offsetAt(midnightUtc, timeZone);
  return midnightUtc - offsetAt(guess, timeZone);
}
