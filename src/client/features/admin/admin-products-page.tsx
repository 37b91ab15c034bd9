import { useRef, useState } from 'react';
import { Link, useLoaderData } from 'react-router';
import { formatCents } from '../../../shared/money';
import { pages } from '../../../shared/pages';
import { fillPath } from '../../../shared/paths';
import type { AdminProduct } from '../../../shared/products';
import { Alert } from '../../components/alert';
import { DataTable } from '../../components/data-table';
import { DocumentTitle } from '../../components/document-title';
import { call, messageOf } from '../../lib/api';
import { useFormat } from '../../lib/shop';
import { AdminNav } from './admin-nav';
import { MoveButtons, moved } from './move-buttons';

export async function loader() {
  return call('adminProducts');
}

/**
 * The owner's catalogue (docs/product.md §13): every product, shown or hidden, in the home page's order, with its
 * picture, price, sizes and stock; 'Move up' and 'Move down' put the home page in a new order at once.
 */
export default function AdminProductsPage() {
  const format = useFormat();
  const loaded = useLoaderData<typeof loader>();
  const [products, setProducts] = useState(loaded.products);
  // A fresh list from the loader (a revalidation) replaces the one the moves left.
  const [source, setSource] = useState(loaded);
  if (source !== loaded) {
    setSource(loaded);
    setProducts(loaded.products);
  }
  const moving = useRef(false);
  const [message, setMessage] = useState<{ kind: 'status' | 'alert'; text: string } | null>(null);

  async function move(product: AdminProduct, index: number, by: -1 | 1) {
    if (moving.current) return;
    moving.current = true;
    setMessage(null);
    const order = moved(products, index, by);
    try {
      const reply = await call('adminOrderProducts', { body: { itemids: order.map((p) => p.itemid) } });
      const place = reply.products.findIndex((p) => p.itemid === product.itemid);
      setProducts(reply.products);
      setMessage({ kind: 'status', text: `${product.name} is now number ${place + 1} in the list.` });
    } catch (error) {
      setMessage({ kind: 'alert', text: messageOf(error) });
    }
    moving.current = false;
  }

  return (
    <section className="page admin-page" aria-labelledby="products-title">
      <DocumentTitle page={pages.adminProducts.title} />
      <h1 id="products-title">Products</h1>
      <AdminNav />
      <p>
        The home page shows the products marked shown, in this order. A product that was ever ordered is never deleted,
        only hidden.
      </p>
      <p>
        <Link className="button" to={pages.adminNewProduct.path}>
          Add a product
        </Link>
      </p>
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      <DataTable labelledBy="products-title" className="products-table">
        <thead>
          <tr>
            <th scope="col">Picture</th>
            <th scope="col">Product</th>
            <th scope="col" className="number">
              Price
            </th>
            <th scope="col">Sizes and stock</th>
            <th scope="col">Home page</th>
            <th scope="col">Place</th>
          </tr>
        </thead>
        <tbody>
          {products.map((product, index) => (
            <tr key={product.itemid}>
              <td>
                <img className="thumbnail" src={product.pic} alt={product.name} width={64} height={64} />
              </td>
              <td>
                <Link to={fillPath(pages.adminProduct.path, { itemid: product.itemid })}>{product.name}</Link>
                <span className="item-number">Item no. {product.itemid}</span>
              </td>
              <td className="number">{formatCents(product.priceCents, format)}</td>
              <td>
                <ul className="size-stock">
                  {product.sizes.map(({ size, stock }) => (
                    <li key={size}>
                      {size}: {stock}
                    </li>
                  ))}
                </ul>
              </td>
              <td>{product.shown ? 'Shown' : 'Hidden'}</td>
              <td>
                <span className="place-actions">
                  <MoveButtons
                    index={index}
                    count={products.length}
                    what={product.name}
                    onMove={(by) => void move(product, index, by)}
                  />
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
    </section>
  );
}
