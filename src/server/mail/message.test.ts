import { describe, expect, it } from 'vitest';
import { brand } from '../../shared/brand';
import { newShopSettings } from '../db/new-shop-settings';
import { compose } from './message';

const site = {
  publicUrl: 'https://levade.test',
  shop: {
    ...newShopSettings,
    shop: {
      ...newShopSettings.shop,
      name: 'Levade',
      address: { line1: '1 Yard Road', line2: '', city: 'Verden', region: '', postalCode: '27283', country: 'DE' },
      phone: '+49 4231 000',
    },
  },
};

describe('compose', () => {
  it('signs an e-mail as the shop it is given, in text and HTML', () => {
    const message = compose({ subject: 'Hi', greeting: 'Hello,', blocks: ['A line.'] }, site);
    expect(message.text).toBe(
      `Hello,\n\nA line.\n\nLevade · ${brand.tagline}\n1 Yard Road, Verden, 27283, Germany · +49 4231 000\n`,
    );
    expect(message.html).toContain('>Levade</p>');
    expect(message.html).toContain(brand.tagline);
    expect(message.html).toContain('1 Yard Road, Verden, 27283, Germany · +49 4231 000<br>');
    expect(`${message.text}${message.html}`).not.toContain('Piaffe');
  });
});
