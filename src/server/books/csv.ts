import { formatAmount } from '../../shared/money';

// The cells and files of the shop's spreadsheets (docs/product.md §11): the orders' CSV (src/server/admin) and the
// month's list of invoices in its ZIP (src/server/invoices) write theirs with these.

/**
 * A text cell, quoted. One that a spreadsheet would run as a formula (it starts with = + - @, a tab or a carriage
 * return) gets a leading apostrophe, so it shows as the text it is (OWASP, "CSV injection").
 */
export function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/**
 * An amount as a plain number of the currency (302.99): a spreadsheet can add it up. Written with a decimal point
 * whatever the shop's locale, since a decimal comma would split the cell.
 */
export function csvAmount(cents: number, currency: string): string {
  return formatAmount(cents, { currency, locale: 'en-US' });
}

/** A spreadsheet's CSV header line of the `columns`, after a byte-order mark so that spreadsheets read UTF-8. */
export function csvHeader(columns: readonly string[]): string {
  return `\uFEFF${columns.map(csvText).join(',')}\r\n`;
}

/** A spreadsheet's CSV of the `columns` and the `rows` (each already written cell by cell, comma-separated). */
export function csvFile(columns: readonly string[], rows: readonly string[]): string {
  return csvHeader(columns) + rows.map((row) => `${row}\r\n`).join('');
}
