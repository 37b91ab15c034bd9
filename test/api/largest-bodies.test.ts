import { describe, expect, it } from 'vitest';
import { bodyLimitOf } from '../../src/server/http/body-size';
import { countryCodes, regionsOf } from '../../src/server/places/places';
import { addressFields } from '../../src/shared/address';
import { endpoints } from '../../src/shared/api';
import { findingLimits, productLimits } from '../../src/shared/limits';
import {
  paymentMethodIds,
  returnsLimits,
  type SettingsEdit,
  settingsLimits,
  shippingLimits,
  taxLimits,
} from '../../src/shared/settings';
import { expectError } from '../support/expect-error';
import { shopWithOwner } from '../support/shop-with-owner';

/**
 * Each route takes the largest body its rules allow (docs/SECURITY.md, "Limits on requests"): the forms as full as
 * they may be, every text at its longest in three-byte characters, are saved; a body past the route's limit is not
 * read.
 */
const shop = shopWithOwner();

/** `length` characters of three bytes each in UTF-8, as long as a field may be. */
const longest = (length: number) => '€'.repeat(length);
/** An id of 40 characters ('z7-aaaa…'), the longest the shipping section's ids may be. */
const longId = (prefix: string) => `${prefix}-`.padEnd(40, 'a');

/**
 * The largest settings the form may save: 40 zones, each with every country an address may be in (at most 250) with
 * up to 100 of its regions, 10 methods with 20 weight bands each; 200 tax rates; every text at its longest.
 */
function largestSettings(version: number): SettingsEdit {
  const places = countryCodes.slice(0, shippingLimits.placesMax).map((country) => {
    const regions = (regionsOf(country) ?? []).map((r) => r.code).sort((a, b) => b.length - a.length);
    const many =
      regions.length === 0
        ? []
        : Array.from({ length: shippingLimits.regionsMax }, (_, i) => regions[i % regions.length] as string);
    return { country, regions: many };
  });
  const bands = Array.from({ length: shippingLimits.bandsMax }, (_, b) => ({
    upToGrams: shippingLimits.gramsMax - (shippingLimits.bandsMax - 1 - b),
    cents: shippingLimits.centsMax,
  }));
  const zones = Array.from({ length: shippingLimits.zonesMax }, (_, z) => ({
    id: longId(`z${z}`),
    name: longest(settingsLimits.nameMax),
    places,
    methods: Array.from({ length: shippingLimits.methodsMax }, (_, m) => ({
      id: longId(`m${z}-${m}`),
      name: longest(shippingLimits.methodNameMax),
      price: { kind: 'bands' as const, bands },
      freeFromCents: shippingLimits.centsMax,
      estimate: longest(shippingLimits.estimateMax),
    })),
  }));
  const usRegions = (regionsOf('US') ?? []).map((r) => r.code);
  const rates = Array.from({ length: taxLimits.ratesMax }, (_, r) => ({
    country: 'US',
    region: usRegions[r % usRegions.length] as string,
    // A letter of three bytes, then the rate's number: each rate's place differs.
    postalPrefix: `ア${String(r).padStart(taxLimits.postalPrefixMax - 1, 'ア')}`,
    rate: taxLimits.rateMax,
    name: longest(taxLimits.nameMax),
  }));
  const bankText = longest(settingsLimits.bankTextMax);
  return {
    access: { openTo: 'everyone' },
    shop: {
      name: longest(settingsLimits.nameMax),
      legalName: longest(settingsLimits.legalNameMax),
      // Gibraltar has no subdivisions: its region is text, as long as a region may be.
      address: {
        line1: longest(addressFields.line1.max),
        line2: longest(addressFields.line2.max),
        city: longest(addressFields.city.max),
        region: longest(addressFields.region.max),
        // A postal code is letters, digits, spaces and hyphens: a letter of three bytes.
        postalCode: 'ア'.repeat(addressFields.postalCode.max),
        country: 'GI',
      },
      phone: '0'.repeat(settingsLimits.phoneMax),
      email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(59)}`,
      taxId: longest(settingsLimits.taxIdMax),
    },
    // Among the longest of the time zones.
    format: { currency: 'USD', locale: 'en-US', timeZone: 'America/Argentina/Buenos_Aires' },
    bankTransfer: {
      payWithinDays: settingsLimits.payWithinDaysMax,
      accountName: bankText,
      bankName: bankText,
      routingNumber: bankText,
      accountNumber: bankText,
      cancelUnpaid: true,
    },
    paymentMethods: [...paymentMethodIds],
    shipping: { zones, collection: { offered: true, estimate: longest(shippingLimits.estimateMax) } },
    tax: { pricesIncludeTax: false, taxShipping: true, rates },
    returns: {
      days: returnsLimits.daysMax,
      address: {
        line1: longest(addressFields.line1.max),
        line2: longest(addressFields.line2.max),
        city: longest(addressFields.city.max),
        region: longest(addressFields.region.max),
        postalCode: 'ア'.repeat(addressFields.postalCode.max),
        country: 'GI',
      },
    },
    reports: { lowStock: returnsLimits.lowStockMax },
    version,
  };
}

/** The largest size guide: 6 columns, 30 rows, every cell at its longest. */
const largestGuide = {
  columns: Array.from({ length: findingLimits.guideColumnsMax }, () => longest(findingLimits.guideCellMax)),
  rows: Array.from({ length: findingLimits.guideRowsMax }, () =>
    Array.from({ length: findingLimits.guideColumnsMax }, () => longest(findingLimits.guideCellMax)),
  ),
};

/** A body of exactly `bytes` bytes that is JSON. */
function padded(bytes: number): string {
  const head = '{"pad":"';
  return `${head}${'x'.repeat(bytes - head.length - 2)}"}`;
}

describe('the largest bodies', () => {
  it("saves the settings as large as the form allows (200), and refuses a body past the route's limit (413)", async () => {
    const { body } = await shop.owner.json('GET', '/api/admin/settings');
    const edit = largestSettings(body.settings.version);
    const json = JSON.stringify(edit);
    const limit = bodyLimitOf(endpoints.adminSaveSettings.body);
    expect(Buffer.byteLength(json)).toBeGreaterThan(16 * 1024);
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(limit);
    const saved = await shop.owner.raw('PUT', '/api/admin/settings', {
      body: json,
      headers: { 'content-type': 'application/json' },
    });
    expect(saved.status, JSON.stringify(saved.body).slice(0, 300)).toBe(200);
    const { version, ...document } = saved.body.settings;
    expect(version).toBe(edit.version + 1);
    const { version: _, ...asSent } = edit;
    expect(document).toEqual(asSent);
    const tooLarge = await shop.owner.raw('PUT', '/api/admin/settings', {
      body: padded(limit + 1),
      headers: { 'content-type': 'application/json' },
    });
    expectError(tooLarge, 413, 'request/body-too-large');
  });

  it('adds and saves a product with the largest form: 20 sizes, the longest details, the largest size guide', async () => {
    const form = {
      name: longest(productLimits.nameMax),
      details: longest(productLimits.detailsMax),
      priceCents: productLimits.priceMaxCents,
      weightGrams: productLimits.weightMaxGrams,
      shown: false,
      sizes: Array.from({ length: productLimits.sizesMax }, (_, s) => ({
        size: `${s}`.padStart(productLimits.sizeMax, '€'),
        stock: productLimits.stockMax,
      })),
      categories: ['bridles', 'saddles', 'boots', 'jackets', 'saddle-pads'],
      sizeGuide: largestGuide,
    };
    expect(Buffer.byteLength(JSON.stringify(form))).toBeGreaterThan(16 * 1024);
    const created = await shop.owner.json('POST', '/api/admin/products', form);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { product } = created.body;
    const edit = {
      ...form,
      sizes: form.sizes.map((size) => ({ ...size, was: size.size, stockShown: size.stock })),
      version: product.version,
    };
    const saved = await shop.owner.json('PUT', `/api/admin/products/${product.itemid}`, edit);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expectError(
      await shop.owner.raw('PUT', `/api/admin/products/${product.itemid}`, {
        body: padded(bodyLimitOf(endpoints.adminUpdateProduct.body) + 1),
        headers: { 'content-type': 'application/json' },
      }),
      413,
      'request/body-too-large',
    );
  });

  it('adds and saves a category with the largest size guide', async () => {
    const form = { name: longest(findingLimits.categoryNameMax), sizeGuide: largestGuide };
    expect(Buffer.byteLength(JSON.stringify(form))).toBeGreaterThan(16 * 1024);
    const created = await shop.owner.json('POST', '/api/admin/categories', form);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { slug, version } = created.body.category;
    const saved = await shop.owner.json('PUT', `/api/admin/categories/${slug}`, { ...form, version });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  });
});
