import { limits } from '../../shared/limits';

/** The rows of page `page` (from 1) of a list, `limits.pageSize` to a page, for a query's `limit` and `offset`. */
export function rowsOfPage(page: number): { limit: number; offset: number } {
  return { limit: limits.pageSize, offset: (page - 1) * limits.pageSize };
}

/** How many pages a list of `total` rows has: at least one, empty or not. */
export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / limits.pageSize));
}
