/**
 * The tables of the catalogue (src/server/db/schema.ts has them all): products, their sizes and stock and the
 * riders waiting for one, slugs, categories, pictures, the search index and the owners' changes.
 */

/** A size a product comes in, and how many of it are on the shelf (docs/product.md §12). */
export interface ProductSizeTable {
  itemid: string;
  size: string;
  /** Stays when the size is renamed: order lines name the size they took stock from by it. */
  key: string;
  /** 1, 2, ...: the size's place in the product's list. */
  position: number;
  /** Never below zero: a CHECK constraint holds it, whatever the code does. */
  stock: number;
}

/**
 * A rider's wait for a size out of stock (docs/product.md §27): by the size's key, which a rename keeps. Deleted when
 * the size's stock rises (its e-mail written in the same unit), when the rider cancels it, and with the rider or size.
 */
export interface StockWaitTable {
  id: string;
  uid: string;
  itemid: string;
  size_key: string;
  created_at: number;
}

export interface ProductTable {
  itemid: string;
  /** Its place on the home page, from 1. */
  position: number;
  name: string;
  details: string;
  price_cents: number;
  /** The thumbnail's and the large picture's URLs: the first pictures' files, or an uploaded picture's. */
  /** As shipped, in grams (migration 0016): shipping by weight reads it. */
  weight_grams: number;
  pic: string;
  largepic: string;
  /** 1 on the home page, 0 hidden. */
  shown: number;
  version: number;
  updated_at: number;
  /** Its address, `/products/<slug>`, made from its name; the ones it had before lead to it too (`product_slug`). */
  slug: string;
  /** The owner's size guide for it (`SizeGuide` as JSON), or null: its first category's then. */
  size_guide: string | null;
}

/** Every slug a product has had, its current one included: each is one product's for ever. */
export interface ProductSlugTable {
  slug: string;
  itemid: string;
}

/** A category of products (docs/product.md §22), known in addresses by its slug. */
export interface CategoryTable {
  slug: string;
  name: string;
  /** Its place among the categories, from 1. */
  position: number;
  /** The size guide of its products (`SizeGuide` as JSON), or null. */
  size_guide: string | null;
}

export interface ProductCategoryTable {
  category: string;
  itemid: string;
}

/** A product's pictures in the owner's order, from 1; the first is also `product.pic` and `product.largepic`. */
export interface ProductPictureTable {
  itemid: string;
  position: number;
  pic: string;
  largepic: string;
}

/** The words of the search index, for forgiving a wrong letter (src/server/catalogue/search-index.ts). */
export interface SearchWordTable {
  word: string;
}

/** SQLite: each word of the vocabulary under itself and each of its one-letter deletions. */
export interface SearchVariantTable {
  variant: string;
  word: string;
}

export interface ProductChangeTable {
  itemid: string;
  seq: number;
  at: number;
  /** Null once the owner's account is gone; `by_email` stays. */
  by_uid: string | null;
  by_email: string;
  what: string;
}

export interface PictureTable {
  /** The SHA-256 of `bytes`, hex: the picture's URL changes with its content. */
  id: string;
  content_type: string;
  bytes: Uint8Array;
  /** When it was last uploaded: an unused picture is deleted a day after (src/server/catalogue/unused-pictures.ts). */
  created_at: number;
}
