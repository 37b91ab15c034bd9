import { Link, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { pages } from '../../../shared/pages';
import { DocumentTitle } from '../../components/document-title';
import { OrdersTable } from '../../components/orders-table';
import { OrderPagination } from '../../components/pagination';
import { call } from '../../lib/api';
import { orNotFound } from '../../lib/not-found';

/** The page of the rider's orders that `?before=` or `?after=` asks for; a page that cannot be is the Snap! page. */
export function loader({ request }: LoaderFunctionArgs) {
  const query = new URL(request.url).searchParams;
  const keys = { before: query.get('before') ?? undefined, after: query.get('after') ?? undefined };
  return orNotFound(call('orders', { query: keys }), 'request/invalid-query');
}

export default function OrdersPage() {
  const { orders, newer, older } = useLoaderData<typeof loader>();
  return (
    <section className="page" aria-labelledby="orders-title">
      <DocumentTitle page={pages.orders.title} />
      <h1 id="orders-title">Your orders</h1>
      {orders.length === 0 ? (
        <p>You have not placed any orders yet.</p>
      ) : (
        <OrdersTable labelledBy="orders-title" orders={orders} orderPath={pages.order.path} />
      )}
      <OrderPagination newer={newer} older={older} />
      <p>
        <Link className="button" to={pages.home.path}>
          Continue Shopping
        </Link>
      </p>
    </section>
  );
}
