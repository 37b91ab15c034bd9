import { useLoaderData, useNavigate } from 'react-router';
import { pages } from '../../../shared/pages';
import { fillPath } from '../../../shared/paths';
import type { NewProduct } from '../../../shared/products';
import { DocumentTitle } from '../../components/document-title';
import { call } from '../../lib/api';
import { AdminNav } from './admin-nav';
import type { AddedState } from './admin-product-page';
import { ProductForm } from './product-form';

export async function loader() {
  const { categories } = await call('adminCategories');
  return { categories };
}

/** A new product, last on the home page, in the categories ticked; its page, where its picture is uploaded, follows. */
export default function AdminNewProductPage() {
  const { categories } = useLoaderData<typeof loader>();
  const navigate = useNavigate();

  async function save(input: NewProduct): Promise<undefined> {
    const { product } = await call('adminCreateProduct', { body: input });
    const state: AddedState = { added: true };
    navigate(fillPath(pages.adminProduct.path, { itemid: product.itemid }), { state });
    return undefined;
  }

  return (
    <section className="page admin-page product-page" aria-labelledby="new-product-title">
      <DocumentTitle page={pages.adminNewProduct.title} />
      <h1 id="new-product-title">New product</h1>
      <AdminNav />
      <p>
        It goes last in the list; its picture is uploaded on its own page, which opens once it is added. Until then it
        shows a placeholder, so you may want to leave it hidden for now.
      </p>
      <ProductForm labelledBy="new-product-title" submit="Add product" save={save} categories={categories} />
    </section>
  );
}
