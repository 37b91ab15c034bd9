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
