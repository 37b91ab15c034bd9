import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { CatalogueProduct } from '../../../shared/api';
import { notices } from '../../../shared/notices';
import { pages } from '../../../shared/pages';
import { ApiError, call } from '../../lib/api';

/** What the rider is told when an add fails: a sold-out size or a hidden product says so; anything else is the add error. */
function addFailure(error: unknown): string {
  const told = error instanceof ApiError && (error.code === 'cart/sold-out' || error.code === 'cart/unavailable');
  return told ? error.message : notices.addFailed;
}

/** 'Add to Cart' on home and on a product's page: the row added, then the cart; or why not, for that product. */
export function useAddToCart() {
  const navigate = useNavigate();
  // A double click must not add two rows.
  const adding = useRef(false);
  const [failure, setFailure] = useState<{ itemid: string; message: string } | null>(null);

  async function add(product: CatalogueProduct, size: string) {
    if (adding.current) return;
    adding.current = true;
    setFailure(null);
    try {
      await call('addToCart', { body: { itemid: product.itemid, size } });
      navigate(pages.cart.path);
    } catch (error) {
      adding.current = false;
      setFailure({ itemid: product.itemid, message: addFailure(error) });
    }
  }

  return { add, failureOf: (itemid: string) => (failure?.itemid === itemid ? failure.message : null) };
}
