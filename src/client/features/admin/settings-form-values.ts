import type { MoneyFormat } from '../../../shared/money';
import {
  isCentCurrency,
  type OpenTo,
  type PaymentMethodId,
  type ShopSettings,
  shopSettingsSchema,
} from '../../../shared/settings';
import { type ShippingDraft, shippingDraft, shippingOf } from './shipping-settings-values';
import { type TaxValues, taxOf, taxValuesOf } from './tax-settings';

/*
 * The owner's settings form as typed (admin-settings-page.tsx, docs/product.md §17): its fields, its values from the
 * settings and the settings its values make, checked by the rules the server applies too.
 */

/** The currencies a shop's prices may be in (those with cents), by name: [code, 'US Dollar (USD)']. Made once. */
let currencies: ReadonlyArray<readonly [string, string]> | undefined;
export function currencyOptions(): ReadonlyArray<readonly [string, string]> {
  const names = new Intl.DisplayNames(['en'], { type: 'currency' });
  currencies ??= Intl.supportedValuesOf('currency')
    .filter(isCentCurrency)
    .map((code) => [code, `${names.of(code) ?? code} (${code})`] as const)
    .sort((a, b) => a[1].localeCompare(b[1], 'en'));
  return currencies;
}

/** The IANA time zones, by name. Made once. */
let timeZones: ReadonlyArray<readonly [string, string]> | undefined;
export function timeZoneOptions(): ReadonlyArray<readonly [string, string]> {
  timeZones ??= Intl.supportedValuesOf('timeZone').map((zone) => [zone, zone.replaceAll('_', ' ')] as const);
  return timeZones;
}

/** The form's text fields, by their path in the settings (as the server names a field it refuses). */
export const textFields = {
  'shop.name': { label: 'Name as shown', autoComplete: 'organization' },
  'shop.legalName': { label: 'Legal name', autoComplete: 'off' },
  'shop.address.line1': { label: 'Address line 1', autoComplete: 'address-line1' },
  'shop.address.line2': { label: 'Address line 2 (optional)', autoComplete: 'address-line2' },
  'shop.address.city': { label: 'City', autoComplete: 'address-level2' },
  'shop.address.region': { label: 'State or region', autoComplete: 'address-level1' },
  'shop.address.postalCode': { label: 'Postal code', autoComplete: 'postal-code' },
  'shop.address.country': { label: 'Country', autoComplete: 'country' },
  'shop.phone': { label: 'Phone', autoComplete: 'tel', type: 'tel' },
  'shop.email': { label: 'E-mail', autoComplete: 'email', type: 'email' },
  'shop.taxId': { label: 'Tax id (optional)', autoComplete: 'off' },
  'format.currency': { label: 'Currency', autoComplete: 'off' },
  'format.locale': {
    label: 'Language and region',
    autoComplete: 'off',
    hint: 'How amounts and dates are written, as a tag such as en-US or de-DE.',
  },
  'format.timeZone': { label: 'Time zone', autoComplete: 'off' },
  'bankTransfer.accountName': { label: 'Account name', autoComplete: 'off' },
  'bankTransfer.bankName': { label: 'Bank', autoComplete: 'off' },
  'bankTransfer.routingNumber': { label: 'Routing number', autoComplete: 'off' },
  'bankTransfer.accountNumber': { label: 'Account number', autoComplete: 'off' },
  'bankTransfer.payWithinDays': { label: 'Days to pay', autoComplete: 'off', inputMode: 'numeric' },
  'returns.days': {
    label: 'Days to return',
    autoComplete: 'off',
    inputMode: 'numeric',
    hint: 'Days after an order is shipped or collected in which its rider may send lines back; 0 turns returns off.',
  },
  'returns.address.line1': { label: 'Return address line 1', autoComplete: 'off' },
  'returns.address.line2': { label: 'Return address line 2 (optional)', autoComplete: 'off' },
  'returns.address.city': { label: 'Return city', autoComplete: 'off' },
  'returns.address.region': { label: 'Return state or region', autoComplete: 'off' },
  'returns.address.postalCode': { label: 'Return postal code', autoComplete: 'off' },
  'returns.address.country': { label: 'Return country', autoComplete: 'off' },
  'reports.lowStock': {
    label: 'Low stock at or below',
    autoComplete: 'off',
    inputMode: 'numeric',
    hint: 'The reports list each size with this many or fewer left.',
  },
} as const;
export type TextPath = keyof typeof textFields;

export interface Values {
  text: Record<TextPath, string>;
  /** 'Who can see the shop'. */
  openTo: OpenTo;
  /** 'Cancel unpaid orders'. */
  cancelUnpaid: boolean;
  /** 'Riders send returns to the shop's address' (the returns' own address is left out). */
  returnToShop: boolean;
  paymentMethods: PaymentMethodId[];
  shipping: ShippingDraft;
  tax: TaxValues;
}

export function valuesOf(settings: ShopSettings): Values {
  // The shipping prices as the shop writes amounts, as saved.
  const { format } = settings;
  const text = Object.fromEntries(
    Object.keys(textFields).map((path) => {
      const value = path
        .split('.')
        .reduce<unknown>((at, name) => (at as Record<string, unknown> | null)?.[name], settings);
      return [path, String(value ?? '')];
    }),
  ) as Record<TextPath, string>;
  return {
    text,
    openTo: settings.access.openTo,
    cancelUnpaid: settings.bankTransfer.cancelUnpaid,
    returnToShop: settings.returns.address === null,
    paymentMethods: [...settings.paymentMethods],
    shipping: shippingDraft(settings.shipping, format),
    tax: taxValuesOf(settings.tax),
  };
}

/**
 * The settings the values make, and each field's problem by the rules the server applies too; prices read as the shop
 * writes amounts (`format`, the settings' as loaded).
 */
export function check(
  { text, openTo, cancelUnpaid, returnToShop, paymentMethods, shipping, tax }: Values,
  format: MoneyFormat,
): {
  input?: ShopSettings;
  problems: Record<string, string>;
} {
  const wholeNumber = (path: TextPath) => {
    const typed = text[path].trim();
    return /^\d+$/.test(typed) ? Number(typed) : Number.NaN;
  };
  const document = {
    shop: {
      name: text['shop.name'],
      legalName: text['shop.legalName'],
      address: {
        line1: text['shop.address.line1'],
        line2: text['shop.address.line2'],
        city: text['shop.address.city'],
        region: text['shop.address.region'],
        postalCode: text['shop.address.postalCode'],
        country: text['shop.address.country'],
      },
      phone: text['shop.phone'],
      email: text['shop.email'],
      taxId: text['shop.taxId'],
    },
    access: { openTo },
    format: {
      currency: text['format.currency'],
      locale: text['format.locale'],
      timeZone: text['format.timeZone'],
    },
    bankTransfer: {
      payWithinDays: wholeNumber('bankTransfer.payWithinDays'),
      accountName: text['bankTransfer.accountName'],
      bankName: text['bankTransfer.bankName'],
      routingNumber: text['bankTransfer.routingNumber'],
      accountNumber: text['bankTransfer.accountNumber'],
      cancelUnpaid,
    },
    paymentMethods,
    shipping: shippingOf(shipping, format),
    tax: taxOf(tax),
    returns: {
      days: wholeNumber('returns.days'),
      address: returnToShop
        ? null
        : {
            line1: text['returns.address.line1'],
            line2: text['returns.address.line2'],
            city: text['returns.address.city'],
            region: text['returns.address.region'],
            postalCode: text['returns.address.postalCode'],
            country: text['returns.address.country'],
          },
    },
    reports: { lowStock: wholeNumber('reports.lowStock') },
  };
  const result = shopSettingsSchema.safeParse(document);
  if (result.success) return { input: result.data, problems: {} };
  const problems: Record<string, string> = {};
  for (const issue of result.error.issues) {
    // A payment method's problem is the list's.
    const path = issue.path[0] === 'paymentMethods' ? 'paymentMethods' : issue.path.join('.');
    problems[path] ??= issue.message;
  }
  return { problems };
}
