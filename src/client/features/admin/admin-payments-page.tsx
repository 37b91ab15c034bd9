import { type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { formatDateTime } from '../../../shared/dates';
import { formatCents } from '../../../shared/money';
import { pages } from '../../../shared/pages';
import { DataTable } from '../../components/data-table';
import { DocumentTitle } from '../../components/document-title';
import { Pagination } from '../../components/pagination';
import { call } from '../../lib/api';
import { useFormat } from '../../lib/shop';
import { AdminNav } from './admin-nav';

export async function loader({ request }: LoaderFunctionArgs) {
  const page = new URL(request.url).searchParams.get('page') ?? undefined;
  return call('adminPaymentProblems', { query: { page } });
}

/** Stripe's webhook events that did not match an order (docs/product.md §14): kept, never marking anything paid. */
export default function AdminPaymentsPage() {
  const format = useFormat();
  const { problems, page, pages: pageCount } = useLoaderData<typeof loader>();
  return (
    <section className="page admin-page" aria-labelledby="payments-title">
      <DocumentTitle page={pages.adminPayments.title} />
      <h1 id="payments-title">Card payments that did not match</h1>
      <AdminNav />
      <p>
        Stripe told the shop of these payments, but they did not match an order waiting for one, so none of them marked
        anything paid. Look each one up in Stripe's dashboard by its event id, and refund it there if needed.
      </p>
      {problems.length === 0 ? (
        <p>None: every card payment matched its order.</p>
      ) : (
        <DataTable labelledBy="payments-title">
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Order</th>
              <th scope="col" className="number">
                Amount
              </th>
              <th scope="col">What is wrong</th>
              <th scope="col">Stripe event</th>
            </tr>
          </thead>
          <tbody>
            {problems.map((problem) => (
              <tr key={problem.id}>
                <td>{formatDateTime(problem.receivedAt, format.locale)}</td>
                <td>{problem.orderRef ?? 'None named'}</td>
                <td className="number">
                  {problem.amountCents === null
                    ? ''
                    : problem.currency?.toUpperCase() === format.currency
                      ? formatCents(problem.amountCents, format)
                      : `${(problem.amountCents / 100).toFixed(2)} ${problem.currency?.toUpperCase() ?? ''}`}
                </td>
                <td>{problem.problem}</td>
                <td>
                  <code>{problem.id}</code> ({problem.type})
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
      <Pagination page={page} pages={pageCount} />
    </section>
  );
}
