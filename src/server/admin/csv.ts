import { addressLines } from '../../shared/address';
import { formatAmount } from '../../shared/money';
import { deliveryText, type Order, statusLabels } from '../../shared/orders';

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
  'Shipping',
  'Total',
  'Status',
  'Delivery',
];

/**
 * A text cell, quoted. One that a spreadsheet would run as a formula (it starts with = + - @, a tab or a carriage
 * return) gets a leading apostrophe, so it shows as the text it is (OWASP, "CSV injection").
 */
function text(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The shop an export is for: the time zone its days are in, the currency its amounts are in. */
export interface CsvShop {
  timeZone: string;
  currency: string;
}

/**
 * An amount as a plain number of the currency (302.99): a spreadsheet can add it up. Written with a decimal point
 * whatever the shop's locale, since a decimal comma would split the cell.
 */
function amount(cents: number, currency: string): string {
  return formatAmount(cents, { currency, locale: 'en-US' });
}

const localTimes = new Map<string, Intl.DateTimeFormat>();

/** `2026-11-24 17:03`, in the shop's time zone. */
function shopTime(iso: string, timeZone: string): string {
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

/**
 * The orders as CSV. The order's own amounts (shipping, total) and delivery are on its first row only, so that summing a column
 * counts each order once; its other rows leave them empty.
 */
export function ordersCsv(orders: readonly Order[], { timeZone, currency }: CsvShop): string {
  const rows = orders.flatMap((order) =>
    order.lines.map((line, index) =>
      [
        text(order.number),
        text(shopTime(order.placedAt, timeZone)),
        text(order.email),
        text(order.address.fullName),
        text(addressLines(order.address).slice(1).join(', ')),
        text(line.itemid),
        text(line.name),
        text(line.size ?? ''),
        amount(line.priceCents, currency),
        index === 0 ? amount(order.shippingCents, currency) : '',
        index === 0 ? amount(order.totalCents, currency) : '',
        text(statusLabels[order.status]),
        text(index === 0 ? deliveryText(order) : ''),
      ].join(','),
    ),
  );
  return `\uFEFF${[columns.map(text).join(','), ...rows].join('\r\n')}\r\n`;
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
