import type { ShopSettings } from '../../shared/settings';
import { firstSettings } from './migrations/0015-shop-settings';
import { firstShipping } from './migrations/0023-shipping-zones';
import { firstTax } from './migrations/0025-tax-settings';
import { firstCancelUnpaid } from './migrations/0035-unpaid-bank-transfers';
import { firstFormat } from './migrations/0036-shop-format';
import { firstAccess } from './migrations/0038-open-to-visitors';
import { firstReports, firstReturns } from './migrations/0041-returns';

/**
 * What a new shop's settings are once every migration has run: 0015's, the shop's address in the parts 0034 reads in
 * it, 0023's shipping, 0025's tax, 0035's 'Cancel unpaid orders', 0036's currency, locale and time zone, 0038's 'Members only' and 0041's returns and reports. For tests
 * and the benches, which compare a new shop with it; typed by today's settings, so that a change to their shape that
 * the migrations' values no longer fit is seen here.
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
  returns: firstReturns,
  reports: firstReports,
};
