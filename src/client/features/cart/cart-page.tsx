import { useState } from 'react';
import { Link } from 'react-router';
import type { CartItem } from '../../../shared/api';
import { notices } from '../../../shared/notices';
import { pages, signInThen } from '../../../shared/pages';
import { Alert } from '../../components/alert';
import { DocumentTitle } from '../../components/document-title';
import { ApiError, call } from '../../lib/api';
import { useSession } from '../../lib/session';
import { CartTable } from './cart-table';
import { useLiveCart } from './use-live-cart';

export default function CartPage() {
  const { items, removeLocally } = useLiveCart();
  const { user } = useSession();
  const [failed, setFailed] = useState(false);

  async function remove(item: CartItem) {
    setFailed(false);
    try {
      await call('removeFromCart', { params: { id: item.id } });
      removeLocally(item.id);
    } catch (error) {
      // Already gone (deleted in another tab): the row goes, and that is no failure.
      if (error instanceof ApiError && error.code === 'cart/not-found') removeLocally(item.id);
      else setFailed(true);
    }
  }

  return (
    <section className="page" aria-labelledby="cart-title">
      <DocumentTitle page={pages.cart.title} />
      <h1 id="cart-title">Your cart</h1>
      {failed && <Alert kind="alert">{notices.deleteFailed}</Alert>}
      {/* The link comes with the table: shown during loading, the table would push it down (a layout shift). */}
      {items ? (
        <>
          {items.length === 0 && <p>Your cart is empty.</p>}
          <CartTable labelledBy="cart-title" items={items} onDelete={remove} />
          <p className="actions">
            <Link className="button" to={pages.home.path}>
              Continue Shopping
            </Link>
            {items.length > 0 && (
              // A visitor signs up or logs in first, and comes back to checkout (docs/product.md §23).
              <Link className="button" to={user ? pages.checkout.path : signInThen(pages.checkout.path)}>
                Checkout
              </Link>
            )}
          </p>
        </>
      ) : (
        <p role="status">Loading your cart…</p>
      )}
    </section>
  );
}
