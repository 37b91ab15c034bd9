import { describe, expect, it } from 'vitest';
import { formatCents, formatTotal, sumCents } from './money';

describe('money', () => {
  it('formats integer cents as US dollars with two decimals', () => {
    expect(formatCents(30299)).toBe('$302.99');
    expect(formatCents(499000)).toBe('$4,990.00');
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(5)).toBe('$0.05');
  });

  it('sums exactly where floating-point sums of prices drift', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sumCents([10, 20])).toBe(30);
    expect(sumCents([30299, 34449])).toBe(64748);
    // 100 rows of $302.99 summed as floats would not be exactly 30299
    expect(sumCents(Array(100).fill(30299))).toBe(3029900);
    expect(formatTotal(Array(100).fill(30299))).toBe('$30,299.00');
  });

  it('shows a total of exactly "0" for an empty cart', () => {
    expect(formatTotal([])).toBe('0');
    expect(formatTotal([30299, 34449])).toBe('$647.48');
  });
});
