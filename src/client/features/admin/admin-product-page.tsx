import { useState } from 'react';
import { Link, type LoaderFunctionArgs, useLoaderData, useLocation, useRevalidator } from 'react-router';
import { pages } from '../../../shared/pages';
import type { AdminProduct, NewProduct } from '../../../shared/products';
import { Alert } from '../../components/alert';
import { DocumentTitle } from '../../components/document-title';
import { call } from '../../lib/api';
import { orNotFound } from '../../lib/not-found';
import { AdminNav } from './admin-nav';
import { ChangeHistory } from './change-history';
import { PictureForm } from './picture-form';
import { ProductForm } from './product-form';
import { ProductPictures } from './product-pictures';

export async function loader({ params }: LoaderFunctionArgs) {
  const [found, { categories }] = await Promise.all([
    orNotFound(call('adminProduct', { params: { itemid: params.itemid ?? '' } }), 'product/not-found'),
    call('adminCategories'),
  ]);
  return { ...found, categories };
}

/** What the new-product page tells this one: the product was just added. */
export interface AddedState {
  added?: boolean;
}

/**
 * A product's page: its form (with its categories and size guide), its pictures and its history. The form saves with the version it was filled from;
 * 'Reload the product' fills it again from the product as it now is (a fresh editor, so nothing of the old is kept).
 */
export default function AdminProductPage() {
  const loaded = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  // A reload asked for is done when the loader's data is no longer what it was then: the editor starts again from it.
  const [reload, setReload] = useState({ asked: false, from: loaded, count: 0 });
  if (reload.asked && loaded !== reload.from) setReload({ asked: false, from: loaded, count: reload.count + 1 });

  function askReload() {
    setReload((current) => ({ ...current, asked: true, from: loaded }));
    void revalidator.revalidate();
  }

  return <ProductEditor key={`${loaded.product.itemid}-${reload.count}`} onReload={askReload} />;
}

function ProductEditor({ onReload }: { onReload(): void }) {
  const { product, history, categories, waiting } = useLoaderData<typeof loader>();
  // The riders who asked to be e-mailed when a size is back (docs/product.md §27): a reason to restock it.
  const waits = product.sizes.flatMap(({ size }) => (waiting[size] ? [`${size}: ${waiting[size]}`] : []));
  const added = (useLocation().state as AddedState | null)?.added === true;
  const revalidator = useRevalidator();
  // The version the form sends: the one it was filled from, then each of this owner's saves and uploads.
  const [version, setVersion] = useState(product.version);

  async function save(input: NewProduct): Promise<AdminProduct> {
    const { product: saved } = await call('adminUpdateProduct', {
      params: { itemid: product.itemid },
      body: { ...input, version },
    });
    setVersion(saved.version);
    // The heading, the facts and the history, as they now are.
    await revalidator.revalidate();
    return saved;
  }

  function pictureSaved(saved: AdminProduct) {
    // An upload is one more version: the form goes on from it, unless someone else's change came in between, which
    // the form has not seen (then Save is told that the product changed).
    setVersion((current) => (saved.version === current + 1 ? saved.version : current));
    void revalidator.revalidate();
  }

  return (
    <section className="page admin-page product-page" aria-labelledby="product-title">
      <DocumentTitle page={`${product.name} · Back office`} />
      <h1 id="product-title">{product.name}</h1>
      <AdminNav />
      <p>
        <Link to={pages.adminProducts.path}>All products</Link>
      </p>
      {added && <Alert kind="status">The product is added. Give it a picture below.</Alert>}
      <dl className="facts">
        <dt>Item no.</dt>
        <dd>{product.itemid}</dd>
        <dt>Home page</dt>
        <dd>{product.shown ? 'Shown' : 'Hidden'}</dd>
        <dt>Place in the list</dt>
        <dd>{product.position}</dd>
        <dt>Version</dt>
        <dd>{version}</dd>
        <dt>Riders waiting for a size</dt>
        <dd>{waits.length > 0 ? waits.join(', ') : 'None'}</dd>
      </dl>
      <div className="product-editor">
        <div className="product-edit">
          <h2 id="product-form-title">Name, price and sizes</h2>
          <ProductForm
            labelledBy="product-form-title"
            product={product}
            submit="Save"
            save={save}
            savedMessage={(saved) => `Saved. This is version ${saved.version} of the product.`}
            onReload={onReload}
            categories={categories}
          />
        </div>
        <PictureForm product={product} onSaved={pictureSaved} />
      </div>
      <ProductPictures product={product} version={version} onSaved={pictureSaved} />
      <ChangeHistory history={history} empty="No changes yet: the product is as the shop first had it." />
    </section>
  );
}
