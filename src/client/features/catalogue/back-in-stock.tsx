import { useState } from 'react';
import { useNavigate } from 'react-router';
import { signInThen } from '../../../shared/pages';
import { ApiError, call, messageOf } from '../../lib/api';
import { currentUser } from '../../lib/session';

/**
 * 'Email me when it is back' for a size sold out (docs/product.md §27): a rider's press asks once (a second is the same
 * alert); a visitor logs in first and comes back to the product's page.
 */
export function BackInStock({ itemid, size, path }: { itemid: string; size: string; path: string }) {
  const navigate = useNavigate();
  const [told, setTold] = useState<string | null>(null);
  async function ask() {
    if (!currentUser()) return navigate(signInThen(path));
    try {
      await call('addStockAlert', { body: { itemid, size } });
      setTold('We will email you');
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return navigate(signInThen(path));
      setTold(messageOf(error));
    }
  }
  return (
    <p className="back-in-stock" aria-live="polite">
      <button type="button" className="button button-quiet" onClick={ask}>
        {told === 'We will email you' ? told : 'Email me when it is back'}
      </button>
      {told !== null && told !== 'We will email you' && <span role="alert"> {told}</span>}
    </p>
  );
}
