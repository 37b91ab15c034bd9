import type { Stock } from '../../shared/api';
import { topic } from '../db/change-feed';

/**
 * A change to the catalogue, on every server: a size's stock after an order, a cancel or the owner's count; or
 * `products`, when the owner changed what the shop sells (the caches of the catalogue drop it, the home pages reload
 * it).
 */
export type CatalogueChange = ({ type: 'stock' } & Stock) | { type: 'products' };

export const catalogueTopic = topic<CatalogueChange>('catalogue');
