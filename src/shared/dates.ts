/**
 * Moments as text, in the locale the caller passes (the shop's, `brand.locale`): nothing here is fixed when it loads,
 * so that a locale from the shop's settings needs no change to it.
 */

/** An ISO 8601 moment as a date and time in the reader's time zone, e.g. "Nov 24, 2026, 5:03 PM" in en-US. */
export function formatDateTime(iso: string, locale: string): string {
  return new Date(iso).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * An ISO 8601 moment as a date in the reader's time zone, or in `timeZone` (an invoice's date is the shop's), e.g.
 * "Nov 24, 2026" in en-US.
 */
export function formatDate(iso: string, locale: string, timeZone?: string): string {
  return new Date(iso).toLocaleDateString(locale, { dateStyle: 'medium', ...(timeZone ? { timeZone } : {}) });
}

/**
 * When a log-in was last used (docs/product.md §4), as precisely as it is recorded: 'in the last 5 minutes' within
 * `stepMinutes`, then minutes or hours ago, and after a day the date and time.
 */
export function formatLastUse(iso: string, stepMinutes: number, locale: string, now = Date.now()): string {
  const minutes = Math.floor((now - Date.parse(iso)) / 60_000);
  if (minutes < stepMinutes) return `in the last ${stepMinutes} minutes`;
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
  if (minutes < 60) return relative.format(-minutes, 'minute');
  if (minutes < 24 * 60) return relative.format(-Math.floor(minutes / 60), 'hour');
  return `on ${formatDateTime(iso, locale)}`;
}
