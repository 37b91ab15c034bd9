import type { SizeGuide } from '../../shared/finding';

/** A product as the shop sells it (its sizes and their stock are the stock store's). */
export interface Product {
  itemid: string;
  /** Its page's address: `/products/<slug>`. */
  slug: string;
  name: string;
  details: string;
  priceCents: number;
  weightGrams: number;
  pic: string;
  largepic: string;
  shown: boolean;
  position: number;
  version: number;
  /** Its own size guide; null: its first category's. */
  sizeGuide: SizeGuide | null;
}
