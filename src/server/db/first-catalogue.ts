/**
 * The eight products of docs/product.md §2, as migration 0009 seeded them into the database, in the home page's
 * order. Part of that migration: never edit it (the owner changes the catalogue in the back office, not here).
 */
export interface FirstProduct {
  itemid: string;
  name: string;
  /** Price in integer cents of the shop's currency (a new shop's: USD). */
  priceCents: number;
  details: string;
  /** Thumbnail picture URL. */
  pic: string;
  /** Large picture URL, opened in a new window. */
  largepic: string;
}

function product(itemid: string, name: string, priceCents: number, slug: string, details: string): FirstProduct {
  return {
    itemid,
    name,
    priceCents,
    details,
    pic: `/pictures/${slug}-thumb.svg`,
    largepic: `/pictures/${slug}.svg`,
  };
}

export const firstCatalogue: readonly FirstProduct[] = [
  product(
    '1',
    'Anky Bridle',
    30299,
    'anky-bridle',
    'A black leather dressage bridle with a padded crown and a softly sparkling browband. Cut for a clean, elegant line in the arena.',
  ),
  product(
    '2',
    'Albion SLK Saddle',
    499000,
    'albion-slk-saddle',
    'A deep-seated dressage saddle with long, straight flaps and generous knee blocks. Made for a close contact and a long leg.',
  ),
  product(
    '3',
    'Ariat Westchester Boots',
    49999,
    'ariat-westchester-boots',
    'Tall field boots with laces at the ankle for a snug fit. Soft leather that breaks in quickly for schooling and shows.',
  ),
  product(
    '4',
    'Carlson Barn Jacket',
    37900,
    'carlson-barn-jacket',
    'A waxed-cotton barn jacket with a corduroy collar and deep pockets. Keeps out wind and rain on early mornings at the yard.',
  ),
  product(
    '5',
    'Carlson Tall Boots',
    39899,
    'carlson-tall-boots',
    'Black dressage boots with a stiff shaft and a full-length back zip. A classic silhouette for the competition ring.',
  ),
  product(
    '6',
    'Crochet Saddle Blanket',
    29900,
    'crochet-saddle-blanket',
    'A cream dressage saddle pad edged with crochet lace and a decorative cord. Quilted cotton that breathes under the saddle.',
  ),
  product(
    '7',
    'Dakota Barn Jacket',
    37900,
    'dakota-barn-jacket',
    'A quilted barn jacket in deep navy with a warm lining. Light enough to ride in, warm enough for winter chores.',
  ),
  product(
    '8',
    'Fellmore Bridle',
    34449,
    'fellmore-bridle',
    'A brown leather bridle with a flash noseband and rolled cheekpieces. Supple, hard-wearing leather for everyday training.',
  ),
];
