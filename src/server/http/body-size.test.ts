import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { regionCodePattern } from '../../shared/address';
import { endpoints } from '../../shared/api';
import { taxRateSchema } from '../../shared/settings';
import { bodyLimitOf, largestJsonBytes, maxBodyBytes, patternBytes } from './body-size';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('the largest JSON of a schema', () => {
  it('is that of its largest value, field by field', () => {
    const schema = z.strictObject({
      name: z.string().max(5),
      code: z.string().regex(regionCodePattern),
      count: z.number().int().min(-20).max(100),
      on: z.boolean(),
      kind: z.enum(['a', 'bbb']),
      tags: z.array(z.string().length(2)).max(3),
      note: z.string().max(2).nullable().optional(),
    });
    const largest = {
      name: '€€€€€',
      code: 'US-ABC',
      count: 100,
      on: false,
      kind: 'bbb',
      tags: ['€€', '€€', '€€'],
      note: '€€',
    };
    expect(schema.parse(largest)).toEqual(largest);
    expect(largestJsonBytes(schema)).toBe(bytes(largest));
  });

  it('takes the largest of a union and the input of a transform', () => {
    const schema = z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('flat'), cents: z.number().int().min(0).max(999) }),
      z.strictObject({ kind: z.literal('many'), list: z.array(z.boolean()).max(2) }),
    ]);
    expect(largestJsonBytes(schema)).toBe(bytes({ kind: 'many', list: [false, false] }));
    const trimmed = z
      .string()
      .max(4)
      .transform((text) => text.length);
    expect(largestJsonBytes(trimmed)).toBe(bytes('€€€€'));
  });

  it('is a tax rate at its longest', () => {
    const rate = {
      country: 'US',
      region: 'US-ABC',
      postalPrefix: 'ア'.repeat(16),
      rate: 100_000,
      name: '€'.repeat(40),
    };
    expect(taxRateSchema.parse(rate)).toEqual(rate);
    expect(largestJsonBytes(taxRateSchema)).toBe(bytes(rate));
  });

  it('has no bound where the schema has none', () => {
    expect(largestJsonBytes(z.string())).toBe(Number.POSITIVE_INFINITY);
    expect(largestJsonBytes(z.array(z.boolean()))).toBe(Number.POSITIVE_INFINITY);
    expect(largestJsonBytes(z.record(z.string(), z.number()))).toBe(Number.POSITIVE_INFINITY);
    expect(() => bodyLimitOf(z.strictObject({ text: z.string() }))).toThrow(/no largest size/);
  });
});

describe("a pattern's longest match", () => {
  it.each([
    [/^[A-Z]{2}-[A-Z0-9]{1,3}$/, 6],
    [/^[a-z0-9][a-z0-9-]{0,39}$/, 40],
    [/^(?:INV|CN)-\d{4}-\d{5,9}$/, 18],
    [/^[0-9+()./ -]?$/, 1],
    [/^[a-z"]{3}$/, 6],
    [/^\\{2}$/, 4],
    [/^[a-z]{2}$/i, 6],
    [/^é{2}$/u, 6],
  ])('%s: %i bytes', (pattern, most) => {
    expect(patternBytes(pattern)).toBe(most);
  });

  it.each([
    /^[a-z]*$/,
    /^[a-z]+$/,
    /^[a-z]{2,}$/,
    /^[^a-z]{2}$/,
    /^.{2}$/,
    /^\s{2}$/,
    /^[\p{L}]{2}$/u,
    /^(a){2}$/,
    /^[a-z]{2}/,
    /[a-z]{2}$/,
  ])('%s: none', (pattern) => {
    expect(patternBytes(pattern)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("the routes' limits", () => {
  it('bound every JSON body of the API, never below 16 KiB', () => {
    for (const [name, spec] of Object.entries(endpoints)) {
      if (!('body' in spec)) continue;
      expect(bodyLimitOf(spec.body), name).toBeGreaterThanOrEqual(maxBodyBytes);
    }
  });

  it("follow the settings' bounds: 40 zones of 250 countries of 100 regions each", () => {
    expect(bodyLimitOf(endpoints.adminSaveSettings.body)).toBeGreaterThan(40 * 250 * 100 * '"US-ABC",'.length);
  });
});
