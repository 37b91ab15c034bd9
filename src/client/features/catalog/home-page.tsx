import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { catalogue, type Product } from '../../../shared/catalogue';
import { pages, pageTitle } from '../../../shared/pages';
import { Alert } from '../../components/alert';
import { ApiError, call } from '../../lib/api';
import { ProductCard } from './product-card';

/**
 * The add-failure text of src/shared/errors.ts, read only when an add fails: that module imports validation.ts
 * and with it zod (about 23 KB gzip), which this page does not need to paint. By then call() has loaded it.
 */
async function addFailedNotice(): Promise<string> {
  return (await import('../../../shared/errors')).notices.addFailed;
}

export default function HomePage() {
  const navigate = useNavigate();
  // A double click must not add two rows.
  const adding = useRef(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function add(product: Product) {
    if (adding.current) return;
    adding.current = true;
    setFailure(null);
    try {
      await call('addToCart', { body: { itemid: product.itemid } });
      navigate(pages.cart.path);
    } catch (error) {
      adding.current = false;
      // Only when the shop could not be reached at all can the text itself be missing; then that is the news.
      setFailure(await addFailedNotice().catch(() => (error instanceof ApiError ? error.message : null)));
    }
  }

  return (
    <section className="page" aria-labelledby="home-title">
      <title>{pageTitle(pages.home.title)}</title>
      <h1 id="home-title">Our collection</h1>
      {failure && <Alert kind="alert">{failure}</Alert>}
      <div className="product-grid">
        {catalogue.map((product) => (
          <ProductCard key={product.itemid} product={product} onAdd={add} />
        ))}
      </div>
    </section>
  );
}
