import type { ShopSettings } from '../../shared/settings';

/**
 * The settings a new shop starts with, as migration 0015 seeds them: the values that were fixed in code before the
 * owner could set them (docs/decisions/0034-the-shops-settings.md). Part of that migration: never edit it (the owner
 * changes the settings in the back office, not here). The address and bank account are fictitious.
 */
export const firstSettings: ShopSettings = {
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
