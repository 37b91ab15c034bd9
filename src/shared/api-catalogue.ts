/**
 * The contract's catalogue area (src/shared/api.ts): the products as the shop shows them to everyone, and their stock.
 */
import './zod-config';
import { z } from 'zod';
import type { Endpoint } from './api-endpoint';
import {
  type CatalogueProduct,
  catalogueProductSchema,
  productDetailsSchema,
  productPageSchema,
  productQuery,
} from './finding';
import { liveStreams } from './live-streams';

export { type CatalogueProduct, catalogueProductSchema };

/** How many of one size of a product are on the shelf. */
export const stockSchema = z.object({ itemid: z.string(), size: z.string(), stock: z.number().int() });
export type Stock = z.infer<typeof stockSchema>;

/** The catalogue's endpoints, in the order of the contract. */
export const catalogueEndpoints = {
  /** The products with their sizes and stock; open to everyone. */
  catalogue: { method: 'GET', path: '/api/catalogue', reply: z.object({ products: z.array(catalogueProductSchema) }) },
  /** A page of the shown products, searched and filtered (docs/product.md §22); open to everyone. */
  products: { method: 'GET', path: '/api/products', query: productQuery, reply: productPageSchema },
  /** A shown product's page by any slug it has had (`product.slug` is its current one); 404 `product/no-page`. */
  product: { method: 'GET', path: '/api/products/:slug', reply: z.object({ product: productDetailsSchema }) },
  /** Server-Sent Events: `stockEventSchemas`. */
  catalogueStream: { method: 'GET', path: liveStreams.catalogue.path },
} as const satisfies Record<string, Endpoint>;
