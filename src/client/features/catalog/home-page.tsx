import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { catalogue, type Product } from '../../../shared/catalogue';
import { notices } from '../../../shared/errors';
import { pages, pageTitle } from '../../../shared/pages';
import { Alert } from '../../components/alert';
import { call } from '../../lib/api';
import { ProductCard } from './product-card';

export function HomePage() {
  const navigate = useNavigate();
  // A double click must not add two rows.
  const adding = useRef(false);
  const [failed, setFailed] = useState(false);

  async function add(product: Product) {
    if (adding.current) return;
    adding.current = true;
    setFailed(false);
    try {
      await call('addToCart', { body: { itemid: product.itemid } });
      navigate(pages.cart.path);
    } catch {
      setFailed(true);
      adding.current = false;
    }
  }

  return (
    <section className="page" aria-labelledby="home-title">
      <title>{pageTitle(pages.home.title)}</title>
      <h1 id="home-title">Our collection</h1>
      {failed && <Alert kind="alert">{notices.addFailed}</Alert>}
      <div className="product-grid">
        {catalogue.map((product) => (
          <ProductCard key={product.itemid} product={product} onAdd={add} />
        ))}
      </div>
    </section>
  );
}
