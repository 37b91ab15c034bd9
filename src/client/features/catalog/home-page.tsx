import { useRef, useState } from 'react';
import { useLoaderData, useNavigate } from 'react-router';
import type { CatalogueProduct } from '../../../shared/api';
import { notices } from '../../../shared/notices';
import { pages } from '../../../shared/pages';
import { DocumentTitle } from '../../components/document-title';
import { ApiError, call } from '../../lib/api';
import { takeCatalogueFromPage } from '../../lib/page-data';
import { ProductCard } from './product-card';
import { useLiveCatalogue } from './use-live-catalogue';

/**
 * The products with their sizes and stock (docs/product.md §12): on the first view from the page's HTML, with their
 * version for the live stream; later in one request.
 */
export async function loader() {
  return takeCatalogueFromPage() ?? call('catalogue');
}

/** What the rider is told when an add fails: a sold-out size or a hidden product says so; anything else is the add error. */
function addFailure(error: unknown): string {
  const told = error instanceof ApiError && (error.code === 'cart/sold-out' || error.code === 'cart/unavailable');
  return told ? error.message : notices.addFailed;
}

export default function HomePage() {
  const navigate = useNavigate();
  const loaded = useLoaderData<typeof loader>();
  const products = useLiveCatalogue(loaded.products, 'version' in loaded ? loaded.version : undefined);
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

  return (
    <section className="page" aria-labelledby="home-title">
      <DocumentTitle page={pages.home.title} />
      <h1 id="home-title">Our collection</h1>
      <div className="product-grid">
        {products.map((product) => (
          <ProductCard
            key={product.itemid}
            product={product}
            onAdd={add}
            failure={failure?.itemid === product.itemid ? failure.message : null}
          />
        ))}
      </div>
    </section>
  );
}
