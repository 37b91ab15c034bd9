import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatLastUse } from './dates';

describe('formatDateTime and formatDate', () => {
  it('write a moment in the locale they are given', () => {
    const moment = '2026-11-24T12:00:00Z';
    expect(formatDate(moment, 'en-US')).toBe('Nov 24, 2026');
    expect(formatDate(moment, 'de-DE')).toBe('24.11.2026');
    expect(formatDateTime(moment, 'de-DE')).toMatch(/^24\.11\.2026, \d\d:\d\d$/);
  });
});

describe('formatLastUse', () => {
  const now = Date.parse('2026-11-24T17:00:00Z');
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString();

  it('says no more than the record knows: within the step, only that it was in it', () => {
    expect(formatLastUse(ago(0), 5, 'en-US', now)).toBe('in the last 5 minutes');
    expect(formatLastUse(ago(4.9), 5, 'en-US', now)).toBe('in the last 5 minutes');
    // A clock a little ahead in the browser does not make it the future.
    expect(formatLastUse(ago(-1), 5, 'en-US', now)).toBe('in the last 5 minutes');
  });

  it('counts minutes, then hours, then names the date', () => {
    expect(formatLastUse(ago(5), 5, 'en-US', now)).toBe('5 minutes ago');
    expect(formatLastUse(ago(59), 5, 'en-US', now)).toBe('59 minutes ago');
    expect(formatLastUse(ago(60), 5, 'en-US', now)).toBe('1 hour ago');
    expect(formatLastUse(ago(23 * 60 + 59), 5, 'en-US', now)).toBe('23 hours ago');
    expect(formatLastUse(ago(24 * 60), 5, 'en-US', now)).toBe(`on ${formatDateTime(ago(24 * 60), 'en-US')}`);
  });

  it('counts in the locale it is given', () => {
    expect(formatLastUse(ago(5), 5, 'de-DE', now)).toBe('vor 5 Minuten');
    expect(formatLastUse(ago(120), 5, 'fr-FR', now)).toBe('il y a 2 heures');
  });
});
