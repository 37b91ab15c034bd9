/** Lists in pages, for both sides: the page asked for in a query string, and the fields of every page answered. */
import './zod-config';
import { z } from 'zod';

/** A page number in a query string: 1 when absent. */
export const pageNumber = z
  .string()
  .regex(/^[1-9][0-9]{0,5}$/, 'page must be a whole number from 1.')
  .transform(Number)
  .optional()
  .transform((page) => page ?? 1);

/** Where a page of a list is: its number, how many pages there are in all (at least 1), and how many rows. */
export const pageFields = {
  page: z.number().int(),
  pages: z.number().int(),
  total: z.number().int(),
};
