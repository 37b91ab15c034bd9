import type { Migration } from 'kysely';

/** The shipping section as this migration wrote it (its shape then, frozen with it). */
interface ShippingOf0023 {
  zones: {
    id: string;
    name: string;
    places: { country: string; regions: string[] }[];
    methods: {
      id: string;
      name: string;
      price: { kind: 'flat'; cents: number };
      freeFromCents: number | null;
      estimate: string;
    }[];
  }[];
  collection: { offered: boolean; estimate: string };
}

/**
 * The shipping a shop starts with, as this migration adds it to the stored document (docs/decisions/0035-shipping-zones.md):
 * the rule that was fixed in code before the owner could set zones, $25.00 within the United States, free from $500.00,
 * and collection at the yard. Part of this migration: never edit it.
 */
export const firstShipping: ShippingOf0023 = {
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

export const migration: Migration = {
  async up(db) {
    // The settings gain their shipping section (docs/decisions/0035-shipping-zones.md), started from the rule that
    // was fixed in code: a shop saved since keeps every other section as the owner left it.
    const row = await db.selectFrom('shop_settings').select('document').where('id', '=', 1).executeTakeFirst();
    if (!row) return;
    const document = { ...JSON.parse(row.document), shipping: firstShipping };
    await db
      .updateTable('shop_settings')
      .set({ document: JSON.stringify(document) })
      .where('id', '=', 1)
      .execute();
  },
};
