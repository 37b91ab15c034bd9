import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { catalogue, type Product } from '../../../shared/catalogue';
import { notices } from '../../../shared/notices';
import { pages, pageTitle } from '../../../shared/pages';
import { Alert } from '../../components/alert';
import { call } from '../../lib/api';
import { ProductCard } from './product-card';

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
    } catch {
      adding.current = false;
      setFailure(notices.addFailed);
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
