import { describe, expect, it } from 'vitest';
import { formatAmount, formatCents, formatTotal, parseCents, sumCents } from './money';

/** A new shop's amounts: US dollars, written as in the United States. */
const usd = { currency: 'USD', locale: 'en-US' };

describe('money', () => {
  it('formats integer cents as US dollars with two decimals', () => {
    expect(formatCents(30299, usd)).toBe('$302.99');
    expect(formatCents(499000, usd)).toBe('$4,990.00');
    expect(formatCents(0, usd)).toBe('$0.00');
    expect(formatCents(5, usd)).toBe('$0.05');
  });

  it('sums exactly where floating-point sums of prices drift', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sumCents([10, 20])).toBe(30);
    expect(sumCents([30299, 34449])).toBe(64748);
    // 100 rows of $302.99 summed as floats would not be exactly 30299
    expect(sumCents(Array(100).fill(30299))).toBe(3029900);
    expect(formatTotal(Array(100).fill(30299), usd)).toBe('$30,299.00');
  });

  it('shows a total of exactly "0" for an empty cart', () => {
    expect(formatTotal([], usd)).toBe('0');
    expect(formatTotal([30299, 34449], usd)).toBe('$647.48');
  });

  it('writes and reads in the currency and locale it is given, not in one fixed when it loads', () => {
    const euros = { currency: 'EUR', locale: 'de-DE' };
    expect(formatCents(123450, euros)).toBe('1.234,50\u00a0€');
    expect(formatAmount(123450, euros)).toBe('1234,50');
    expect(parseCents('1.234,5', euros)).toBe(123450);
    expect(parseCents('1,234.5', euros)).toBeUndefined();
    expect(formatAmount(123450, usd)).toBe('1234.50');
  });

  it('reads an amount as an owner types it, and nothing else', () => {
    expect(parseCents('302.99', usd)).toBe(30299);
    expect(parseCents(' $1,250 ', usd)).toBe(125000);
    expect(parseCents('3.5', usd)).toBe(350);
    expect(parseCents('0', usd)).toBe(0);
    for (const typed of ['', '3.999', '-5', '1,25', '12,3456', 'abc', '$', '1e3', '٣']) {
      expect(parseCents(typed, usd), typed).toBeUndefined();
    }
    expect(parseCents('9'.repeat(20), usd)).toBeUndefined();
  });

  it('reads back every amount it writes', () => {
    for (const cents of [0, 5, 30299, 123456789]) {
      expect(parseCents(formatAmount(cents, usd), usd)).toBe(cents);
      expect(parseCents(formatCents(cents, usd), usd)).toBe(cents);
    }
  });
});
