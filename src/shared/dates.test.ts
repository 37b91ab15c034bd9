import { describe, expect, it } from 'vitest';
import { formatDateTime, formatLastUse } from './dates';

describe('formatLastUse', () => {
  const now = Date.parse('2026-11-24T17:00:00Z');
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString();

  it('says no more than the record knows: within the step, only that it was in it', () => {
    expect(formatLastUse(ago(0), 5, now)).toBe('in the last 5 minutes');
    expect(formatLastUse(ago(4.9), 5, now)).toBe('in the last 5 minutes');
    // A clock a little ahead in the browser does not make it the future.
    expect(formatLastUse(ago(-1), 5, now)).toBe('in the last 5 minutes');
  });

  it('counts minutes, then hours, then names the date', () => {
    expect(formatLastUse(ago(5), 5, now)).toBe('5 minutes ago');
    expect(formatLastUse(ago(59), 5, now)).toBe('59 minutes ago');
    expect(formatLastUse(ago(60), 5, now)).toBe('1 hour ago');
    expect(formatLastUse(ago(23 * 60 + 59), 5, now)).toBe('23 hours ago');
    expect(formatLastUse(ago(24 * 60), 5, now)).toBe(`on ${formatDateTime(ago(24 * 60))}`);
  });
});
