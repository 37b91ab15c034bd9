import { useId } from 'react';
import { Form, Link, type LoaderFunctionArgs, useLoaderData, useLocation, useSearchParams } from 'react-router';
import { formatDate } from '../../../shared/dates';
import { pages } from '../../../shared/pages';
import { fillPath } from '../../../shared/paths';
import { type ReturnState, returnStateLabels, returnStates } from '../../../shared/returns';
import { DataTable } from '../../components/data-table';
import { DocumentTitle } from '../../components/document-title';
import { call } from '../../lib/api';
import { useFormat } from '../../lib/shop';
import { AdminNav } from './admin-nav';
import { useLiveOrders } from './use-live-orders';

/** The returns the filter in the address asks for: a state (or all), a page before a return's number. */
export function loader({ request }: LoaderFunctionArgs) {
  const query = new URL(request.url).searchParams;
  return call('adminReturns', {
    query: {
      state: (query.get('state') || undefined) as ReturnState | undefined,
      before: query.get('before') || undefined,
    },
  });
}

/** The address of the older page: the same filter, before `older`. */
function olderPath(pathname: string, search: string, older: string): string {
  const query = new URLSearchParams(search);
  query.set('before', older);
  return `${pathname}?${query}`;
}

/** The returns riders asked for (docs/product.md §25), newest first, by state, live as they come and move. */
export default function AdminReturnsPage() {
  const { returns, older } = useLoaderData<typeof loader>();
  const [search] = useSearchParams();
  const { pathname } = useLocation();
  const { locale } = useFormat();
  const stateId = useId();
  useLiveOrders();
  const state = search.get('state') ?? '';
  const newest = search.has('before') ? `${pathname}${state ? `?state=${state}` : ''}` : null;

  return (
    <section className="page admin-page" aria-labelledby="returns-title">
      <DocumentTitle page={pages.adminReturns.title} />
      <h1 id="returns-title">Returns</h1>
      <AdminNav />
      {/* The filter lives in the address, so that a filtered list can be reloaded, bookmarked and shared. */}
      <Form method="get" className="filters" aria-label="Filter returns">
        <div className="field">
          <label htmlFor={stateId}>State</label>
          <select id={stateId} name="state" defaultValue={state} key={state}>
            <option value="">All</option>
            {returnStates.map((choice) => (
              <option key={choice} value={choice}>
                {returnStateLabels[choice]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          Show
        </button>
      </Form>
      <p role="status">
        {returns.length === 0 ? 'No returns here.' : `${returns.length} returns on this page.`} Returns appear and move
        here as riders ask for them and as they are handled.
      </p>
      {returns.length > 0 && (
        <DataTable labelledBy="returns-title">
          <thead>
            <tr>
              <th scope="col">Return</th>
              <th scope="col">Asked</th>
              <th scope="col">Order</th>
              <th scope="col">E-mail</th>
              <th scope="col" className="number">
                Items
              </th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {returns.map((item) => (
              <tr key={item.number}>
                <th scope="row">
                  <Link to={fillPath(pages.adminReturn.path, { number: item.number })}>{item.number}</Link>
                </th>
                <td>{formatDate(item.requestedAt, locale)}</td>
                <td>
                  <Link to={fillPath(pages.adminOrder.path, { number: item.order })}>{item.order}</Link>
                </td>
                <td>{item.email}</td>
                <td className="number">{item.lines.length}</td>
                <td>{returnStateLabels[item.state]}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
      {(newest !== null || older !== null) && (
        <nav className="pagination" aria-label="Pages">
          {newest !== null && <Link to={newest}>Newest returns</Link>}
          {older !== null && <Link to={olderPath(pathname, search.toString(), older)}>Older returns</Link>}
        </nav>
      )}
    </section>
  );
}
