import type { FormEvent } from 'react';
import { type LoaderFunctionArgs, useLoaderData, useNavigate, useSearchParams } from 'react-router';
import { endpoints } from '../../../shared/api';
import { orderStatuses, statusLabels } from '../../../shared/orders';
import { pages } from '../../../shared/pages';
import { DocumentTitle } from '../../components/document-title';
import { OrdersTable } from '../../components/orders-table';
import { OrderPagination } from '../../components/pagination';
import { call } from '../../lib/api';
import { AdminNav } from './admin-nav';
import { useLiveOrders } from './use-live-orders';

/** The orders the filter in the address asks for. */
export async function loader({ request }: LoaderFunctionArgs) {
  const query = new URL(request.url).searchParams;
  return call('adminOrders', {
    query: {
      before: query.get('before') ?? undefined,
      after: query.get('after') ?? undefined,
      status: (query.get('status') || undefined) as (typeof orderStatuses)[number] | undefined,
      q: query.get('q') || undefined,
    },
  });
}

/** Today and the first of this month, as the date inputs write them (`2026-11-24`), in the owner's own time. */
function thisMonth(): { from: string; to: string } {
  const today = new Date();
  const day = (date: Date) =>
    `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  return { from: day(new Date(today.getFullYear(), today.getMonth(), 1)), to: day(today) };
}

/** How many orders the list has, as its status line says it: counted up to `limits.orderCountMax`. */
function ordersCounted(total: number, more: boolean): string {
  const count = total.toLocaleString('en-US');
  if (more) return `More than ${count} orders`;
  return total === 1 ? '1 order' : `${count} orders`;
}

export default function AdminPage() {
  const { orders, total, more, newer, older } = useLoaderData<typeof loader>();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  useLiveOrders();
  const month = thisMonth();

  // The filter lives in the address, so that a filtered list can be reloaded, bookmarked and shared.
  function filter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const given = [...new FormData(event.currentTarget)].filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
    );
    navigate(`${pages.admin.path}?${new URLSearchParams(given)}`);
  }

  return (
    <section className="page admin-page" aria-labelledby="admin-title">
      <DocumentTitle page={pages.admin.title} />
      <h1 id="admin-title">Orders</h1>
      <AdminNav />
      <form className="filters" aria-label="Filter orders" onSubmit={filter}>
        <div className="field">
          <label htmlFor="order-status">Status</label>
          <select id="order-status" name="status" defaultValue={search.get('status') ?? ''}>
            <option value="">All</option>
            {orderStatuses.map((status) => (
              <option key={status} value={status}>
                {statusLabels[status]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="order-search">Order number or e-mail</label>
          <input id="order-search" name="q" type="search" defaultValue={search.get('q') ?? ''} maxLength={254} />
        </div>
        <button type="submit" className="button">
          Show
        </button>
      </form>
      <p role="status">{ordersCounted(total, more)}. New orders appear here as they are placed.</p>
      {orders.length > 0 && (
        <OrdersTable labelledBy="admin-title" orders={orders} orderPath={pages.adminOrder.path} withEmail />
      )}
      <OrderPagination newer={newer} older={older} />
      <form method="get" action={endpoints.adminExport.path} className="card filters" aria-labelledby="export-title">
        <h2 id="export-title">Export for the books</h2>
        <p>The orders of these days, one row per item, as a spreadsheet (CSV). Days are the shop's.</p>
        <div className="field">
          <label htmlFor="export-from">From</label>
          <input id="export-from" name="from" type="date" required defaultValue={month.from} />
        </div>
        <div className="field">
          <label htmlFor="export-to">To</label>
          <input id="export-to" name="to" type="date" required defaultValue={month.to} />
        </div>
        <button type="submit" className="button">
          Download CSV
        </button>
      </form>
    </section>
  );
}
