import { data, Link, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { formatDate } from '../../../shared/dates';
import { formatCents } from '../../../shared/money';
import { statusLabels } from '../../../shared/orders';
import { pages, pageTitle } from '../../../shared/pages';
import { fillPath } from '../../../shared/paths';
import { Pagination } from '../../components/pagination';
import { ApiError, call } from '../../lib/api';

/** The page of the rider's orders that `?page=` asks for; a page that cannot be is the Snap! page. */
export async function loader({ request }: LoaderFunctionArgs) {
  const page = new URL(request.url).searchParams.get('page') ?? undefined;
  try {
    return await call('orders', { query: { page } });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'request/invalid-query') throw data(null, { status: 404 });
    throw error;
  }
}

export default function OrdersPage() {
  const { orders, page, pages: pageCount } = useLoaderData<typeof loader>();
  return (
    <section className="page" aria-labelledby="orders-title">
      <title>{pageTitle(pages.orders.title)}</title>
      <h1 id="orders-title">Your orders</h1>
      {orders.length === 0 ? (
        <p>You have not placed any orders yet.</p>
      ) : (
        <table className="data-table" aria-labelledby="orders-title">
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Date</th>
              <th scope="col" className="number">
                Items
              </th>
              <th scope="col" className="number">
                Total
              </th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {orders.map((order) => (
              <tr key={order.number}>
                <th scope="row">
                  <Link to={fillPath(pages.order.path, { number: order.number })}>{order.number}</Link>
                </th>
                <td>{formatDate(order.placedAt)}</td>
                <td className="number">{order.itemCount}</td>
                <td className="number">{formatCents(order.totalCents)}</td>
                <td>{statusLabels[order.status]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pagination page={page} pages={pageCount} />
      <p>
        <Link className="button" to={pages.home.path}>
          Continue Shopping
        </Link>
      </p>
    </section>
  );
}
