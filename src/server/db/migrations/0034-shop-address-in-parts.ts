import type { Migration } from 'kysely';

/**
 * This migration's reading of the shop's address, which was one line of text until then
 * (docs/decisions/0051-a-sale-at-the-yard.md): its parts, so that the address an owner typed prints as before. Part of
 * this migration: never edit it.
 *
 * A United States address ending in a state and a ZIP code ('12 Arena Lane, Wellington, FL 33414') gives each part.
 * Anything else keeps its text in the address lines, its last part (after a comma) as the city, and the country the
 * shop's amounts are in (the United States); its state, if the country needs one, is for the owner to choose in
 * 'Settings' at the next save, which asks for it.
 */
export interface ShopAddressParts {
  line1: string;
  line2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
}

/** The United States' subdivisions in ISO 3166-2 as the `iso-3166` package listed them when this migration shipped. */
const usStates = new Set(
  'AK AL AR AS AZ CA CO CT DC DE FL GA GU HI IA ID IL IN KS KY LA MA MD ME MI MN MO MP MS MT NC ND NE NH NJ NM NV NY OH OK OR PA PR RI SC SD TN TX UM UT VA VI VT WA WI WV WY'
    .split(' ')
    .map((code) => `US-${code}`),
);

/** A line of an address is at most this long (the delivery address's line 1 and line 2). */
const lineMax = 100;

/** Text in two lines of at most `lineMax` each, split at a comma or a space where it can be. */
function lines(text: string): { line1: string; line2: string } {
  if (text.length <= lineMax) return { line1: text, line2: '' };
  const comma = text.lastIndexOf(', ', lineMax);
  const space = text.lastIndexOf(' ', lineMax);
  const at = comma > 0 ? comma : space > 0 ? space : lineMax;
  return {
    line1: text.slice(0, at).trim(),
    line2: text
      .slice(at)
      .replace(/^,?\s*/, '')
      .slice(0, lineMax),
  };
}

export function shopAddressParts(text: string): ShopAddressParts {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const last = parts.at(-1) ?? '';
  const stateAndZip = /^([A-Z]{2})\s+(\d{5}(?:-\d{4})?)$/.exec(last);
  if (parts.length >= 3 && stateAndZip && usStates.has(`US-${stateAndZip[1]}`)) {
    return {
      ...lines(parts.slice(0, -2).join(', ')),
      city: parts.at(-2)?.slice(0, 60) ?? '',
      region: `US-${stateAndZip[1]}`,
      postalCode: stateAndZip[2] ?? '',
      country: 'US',
    };
  }
  if (parts.length < 2) return { ...lines(text.trim()), city: '', region: '', postalCode: '', country: 'US' };
  return {
    ...lines(parts.slice(0, -1).join(', ')),
    city: last.slice(0, 60),
    region: '',
    postalCode: '',
    country: 'US',
  };
}

export const migration: Migration = {
  async up(db) {
    // The shop's address in its parts (docs/decisions/0051-a-sale-at-the-yard.md): an order collected at the yard is
    // taxed where the yard is, so its state and postal code must be known; it still prints as one block.
    const row = await db.selectFrom('shop_settings').select('document').where('id', '=', 1).executeTakeFirst();
    if (!row) return;
    const document = JSON.parse(row.document);
    if (typeof document.shop?.address !== 'string') return;
    document.shop.address = shopAddressParts(document.shop.address);
    await db
      .updateTable('shop_settings')
      .set({ document: JSON.stringify(document) })
      .where('id', '=', 1)
      .execute();
  },
};
