import { brand } from './brand';

const dateTime = new Intl.DateTimeFormat(brand.locale, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(brand.locale, { dateStyle: 'medium' });

/** An ISO 8601 moment as a date and time in the reader's time zone, e.g. "Nov 24, 2026, 5:03 PM". */
export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

/** An ISO 8601 moment as a date in the reader's time zone, e.g. "Nov 24, 2026". */
export function formatDate(iso: string): string {
  return dateOnly.format(new Date(iso));
}

const relative = new Intl.RelativeTimeFormat(brand.locale, { numeric: 'always' });

/**
 * When a log-in was last used (docs/product.md §4), as precisely as it is recorded: 'in the last 5 minutes' within
 * `stepMinutes`, then minutes or hours ago, and after a day the date and time.
 */
export function formatLastUse(iso: string, stepMinutes: number, now = Date.now()): string {
  const minutes = Math.floor((now - Date.parse(iso)) / 60_000);
  if (minutes < stepMinutes) return `in the last ${stepMinutes} minutes`;
  if (minutes < 60) return relative.format(-minutes, 'minute');
  if (minutes < 24 * 60) return relative.format(-Math.floor(minutes / 60), 'hour');
  return `on ${formatDateTime(iso)}`;
}
