import type {
  BankTransfer,
  PaymentMethodId,
  ShippingSettings,
  ShopAccess,
  ShopDetails,
  ShopFormat,
  ShopSettings,
  TaxSettings,
} from '../../shared/settings';

/** The settings as migration 0015 wrote them: the shop's address was one line of text until migration 0034. */
interface SettingsOf0015 {
  shop: Omit<ShopDetails, 'address'> & { address: string };
  bankTransfer: Omit<BankTransfer, 'cancelUnpaid'>;
  paymentMethods: PaymentMethodId[];
}

/**
 * The settings a new shop starts with, as migration 0015 seeds them: the values that were fixed in code before the
 * owner could set them (docs/decisions/0034-the-shops-settings.md). Part of that migration: never edit it (the owner
 * changes the settings in the back office, not here). The address and bank account are fictitious.
 */
export const firstSettings: SettingsOf0015 = {
  shop: {
    name: 'Piaffe',
    legalName: 'Piaffe Saddlery LLC',
    address: '12 Arena Lane, Wellington, FL 33414',
    phone: '(561) 555-0142',
    email: 'shop@piaffe.example',
    taxId: '',
  },
  bankTransfer: {
    payWithinDays: 7,
    accountName: 'Piaffe Saddlery LLC',
    bankName: 'Wellington Community Bank',
    routingNumber: '000000000',
    accountNumber: '0000 1234 5678',
  },
  paymentMethods: ['bank-transfer', 'collection', 'card'],
};

/**
 * The shipping a shop starts with, as migration 0023 adds it to the stored document (docs/decisions/0035-shipping-zones.md):
 * the rule that was fixed in code before the owner could set zones, $25.00 within the United States, free from $500.00,
 * and collection at the yard. Part of that migration: never edit it.
 */
export const firstShipping: ShippingSettings = {
  zones: [
    {
      id: 'united-states',
      name: 'United States',
      places: [{ country: 'US', regions: [] }],
      methods: [
        {
          id: 'standard',
          name: 'Standard',
          price: { kind: 'flat', cents: 2500 },
          freeFromCents: 50000,
          estimate: '',
        },
      ],
    },
  ],
  collection: { offered: true, estimate: '' },
};

/**
 * The tax a shop starts with, as migration 0025 adds it to the stored document (docs/decisions/0041-tax-settings.md):
 * no rates and prices that include any tax, so that it charges what it charged before; shipping taxed as the goods
 * are once the owner adds a rate, as most places tax a delivery sold with the goods. Part of that migration: never
 * edit it.
 */
export const firstTax: TaxSettings = { pricesIncludeTax: true, taxShipping: true, rates: [] };

/**
 * Whether the shop cancels unpaid bank-transfer orders, as migration 0035 adds it to the stored document's bank
 * transfer section, for a new shop and an upgraded one alike (docs/decisions/0049-unpaid-bank-transfers.md): on, so
 * that an unpaid order no longer holds its stock and its discount code's use for ever. Part of that migration: never
 * edit it.
 */
export const firstCancelUnpaid = true;

/**
 * How a shop's amounts and days read, as migration 0036 adds it to the stored document for a new shop and an upgraded
 * one alike (docs/decisions/0053-an-orders-money-as-one-value.md): the values the code fixed until then, so that every
 * shop reads as before. Part of that migration: never edit it.
 */
export const firstFormat: ShopFormat = { currency: 'USD', locale: 'en-US', timeZone: 'America/New_York' };

/**
 * Who can see a shop, as migration 0038 adds it to the stored document for a new shop and an upgraded one alike
 * (docs/decisions/0055-open-to-visitors.md): its members only, as every shop was until then. Part of that migration:
 * never edit it.
 */
export const firstAccess: ShopAccess = { openTo: 'members' };

/**
 * What a new shop's settings are once every migration has run: 0015's, the shop's address in the parts 0034 reads in
 * it, 0023's shipping, 0025's tax, 0035's 'Cancel unpaid orders', 0036's currency, locale and time zone and 0038's 'Members only'. For tests and the
 * benches, which compare a new shop with it.
 */
export const newShopSettings: ShopSettings = {
  ...firstSettings,
  shop: {
    ...firstSettings.shop,
    address: {
      line1: '12 Arena Lane',
      line2: '',
      city: 'Wellington',
      region: 'US-FL',
      postalCode: '33414',
      country: 'US',
    },
  },
  access: firstAccess,
  format: firstFormat,
  bankTransfer: { ...firstSettings.bankTransfer, cancelUnpaid: firstCancelUnpaid },
  shipping: firstShipping,
  tax: firstTax,
};
