import { data } from 'react-router';
import { ApiError } from './api';

/** The Snap! page, as a loader throws it: nothing to see here (docs/product.md §7). */
export const notFound = () => data(null, { status: 404 });

/** `promise`'s value; the API's refusal `code` (an order that is not the rider's, say) becomes the Snap! page. */
export async function orNotFound<T>(promise: Promise<T>, code: string): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof ApiError && error.code === code) throw notFound();
    throw error;
  }
}
