import { Link, type LoaderFunctionArgs, useLoaderData, useLocation, useNavigation, useRevalidator } from 'react-router';
import { homeTitle, pages } from '../../../shared/pages';
import { DocumentTitle } from '../../components/document-title';
import { Pagination } from '../../components/pagination';
import { call } from '../../lib/api';
import { orNotFound } from '../../lib/not-found';
import { takeFromPage } from '../../lib/page-data';
import { choicesOf, Finder } from './finder';
import { ProductCard } from './product-card';
import { useAddToCart } from './use-add-to-cart';
import { useLiveCatalogue } from './use-live-catalogue';

/**
 * The page of the list the address asks for, its products with their sizes and stock (docs/product.md §12, §22): on
 * the first view from the page's HTML, with the version of the products for the live stream; later in one request.
 * An address the list refuses (`page=0`) is the Snap! page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const fromPage = takeFromPage('catalogue');
  if (fromPage) return fromPage;
  const given = new URL(request.url).searchParams;
  const query = Object.fromEntries(
    ['q', 'category', 'size', 'instock', 'page'].flatMap((name) => {
      const value = given.get(name);
      return value === null ? [] : [[name, value]];
    }),
  );
  return { list: await orNotFound(call('products', { query }), 'request/invalid-query') };
}

export default function HomePage() {
  const loaded = useLoaderData<typeof loader>();
  const { list } = loaded;
  const location = useLocation();
  const pending = useNavigation().location;
  // The choices as the rider just made them, while their list is on its way; the address's otherwise.
  const shownChoices = choicesOf(new URLSearchParams(location.search));
  const choices =
    pending?.pathname === location.pathname ? choicesOf(new URLSearchParams(pending.search)) : shownChoices;
  const { revalidate } = useRevalidator();
  const products = useLiveCatalogue(list.products, {
    version: 'version' in loaded ? loaded.version : undefined,
    inStockOnly: shownChoices.instock,
    reload: () => void revalidate(),
  });
  const { add, failureOf } = useAddToCart();

  return (
    <section className="page" aria-labelledby="home-title">
      <DocumentTitle
        page={homeTitle({
          q: shownChoices.q,
          categoryName: list.categories.find((category) => category.slug === shownChoices.category)?.name,
          page: list.page,
        })}
      />
      <h1 id="home-title">Our collection</h1>
      <Finder choices={choices} categories={list.categories} sizes={list.sizes} />
      {products.length === 0 ? (
        <p className="finder-none" role="status">
          {shownChoices.q.trim() ? `Nothing matches "${shownChoices.q.trim()}".` : 'Nothing matches these choices.'}{' '}
          <Link to={pages.home.path}>See every product</Link>
        </p>
      ) : (
        <div className="product-grid">
          {products.map((product) => (
            <ProductCard key={product.itemid} product={product} onAdd={add} failure={failureOf(product.itemid)} />
          ))}
        </div>
      )}
      <Pagination page={list.page} pages={list.pages} />
    </section>
  );
}
