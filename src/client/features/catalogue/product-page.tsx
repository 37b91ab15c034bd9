import { useRef } from 'react';
import { type LoaderFunctionArgs, redirect, useLoaderData, useRevalidator } from 'react-router';
import type { SizeGuide } from '../../../shared/finding';
import { formatCents } from '../../../shared/money';
import { DocumentTitle } from '../../components/document-title';
import { call } from '../../lib/api';
import { orNotFound } from '../../lib/not-found';
import { takeFromPage } from '../../lib/page-data';
import { useFormat } from '../../lib/shop';
import { Purchase, productPath } from './product-card';
import { useAddToCart } from './use-add-to-cart';
import { useLiveCatalogue } from './use-live-catalogue';

/**
 * A shown product's page by its slug (docs/product.md §22), on the first view from the page's HTML; an older slug of the product goes to its current one, and
 * a hidden product or an unknown slug is the Snap! page.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const fromPage = takeFromPage('product');
  const product =
    fromPage?.product ??
    (await orNotFound(call('product', { params: { slug: params.slug ?? '' } }), 'product/no-page')).product;
  if (product.slug !== params.slug) throw redirect(productPath(product.slug));
  return { product, version: fromPage?.version };
}

/** The owner's size guide in a dialog: a table of text, its first row the headings. */
function SizeGuideDialog({ name, guide }: { name: string; guide: SizeGuide }) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" className="button button-quiet" onClick={() => dialog.current?.showModal()}>
        Size guide
      </button>
      <dialog ref={dialog} className="size-guide" aria-labelledby="size-guide-title">
        <h2 id="size-guide-title">Size guide</h2>
        <table className="data-table">
          <caption>Sizes of the {name}</caption>
          <thead>
            <tr>
              {guide.columns.map((column, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the owner's headings may repeat; their place is theirs.
                <th key={index} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {guide.rows.map((row, r) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are the owner's, in the owner's order.
              <tr key={r}>
                {row.map((cell, c) =>
                  c === 0 ? (
                    // biome-ignore lint/suspicious/noArrayIndexKey: cells stay in their places.
                    <th key={c} scope="row">
                      {cell}
                    </th>
                  ) : (
                    // biome-ignore lint/suspicious/noArrayIndexKey: cells stay in their places.
                    <td key={c}>{cell}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
        <form method="dialog">
          <button type="submit" className="button">
            Close
          </button>
        </form>
      </dialog>
    </>
  );
}

export default function ProductPage() {
  const format = useFormat();
  const data = useLoaderData<typeof loader>();
  const loaded = data.product;
  const { revalidate } = useRevalidator();
  const [product] = useLiveCatalogue([loaded], {
    version: data.version,
    reload: () => void revalidate(),
  });
  const { add, failureOf } = useAddToCart();
  const shown = product ?? loaded;
  const count = loaded.pictures.length;

  return (
    <section className="page product-page" aria-labelledby="product-title">
      <DocumentTitle page={shown.name} />
      <div className="product-page-grid">
        <ul className="gallery" aria-label="Pictures">
          {loaded.pictures.map((picture, index) => (
            <li key={picture.largepic}>
              <a href={picture.largepic} target="_blank" rel="noopener">
                <img
                  src={picture.pic}
                  alt={count > 1 ? `${shown.name}, picture ${index + 1} of ${count}` : shown.name}
                  width={index === 0 ? 320 : 96}
                  height={index === 0 ? 320 : 96}
                />
              </a>
            </li>
          ))}
        </ul>
        <div className="product product-page-body">
          <p className="product-number">Item no. {shown.itemid}</p>
          <h1 id="product-title">{shown.name}</h1>
          <p className="product-price">{formatCents(shown.priceCents, format)}</p>
          <p className="product-details">{shown.details}</p>
          {loaded.sizeGuide && <SizeGuideDialog name={shown.name} guide={loaded.sizeGuide} />}
          <Purchase product={shown} onAdd={add} failure={failureOf(shown.itemid)} />
        </div>
      </div>
    </section>
  );
}
