import { useId } from 'react';
import { Form, Link, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { formatDate } from '../../../shared/dates';
import { documentFileName, documentLabels, documentPaths, monthLabel } from '../../../shared/invoices';
import { formatCents } from '../../../shared/money';
import { pages } from '../../../shared/pages';
import { fillPath } from '../../../shared/paths';
import { DataTable } from '../../components/data-table';
import { DocumentTitle } from '../../components/document-title';
import { call } from '../../lib/api';
import { useFormat } from '../../lib/shop';
import { AdminNav } from './admin-nav';

export async function loader({ request }: LoaderFunctionArgs) {
  const month = new URL(request.url).searchParams.get('month') ?? undefined;
  return call('adminInvoices', { query: { month } });
}

/**
 * The shop's invoices and credit notes by month (docs/product.md §20): each downloadable, and the month's as one ZIP
 * with a CSV summary, for the accountant.
 */
export default function AdminInvoicesPage() {
  const format = useFormat();
  const { month, months, documents } = useLoaderData<typeof loader>();
  const monthId = useId();
  const label = monthLabel(month, format.locale);
  const choices = months.includes(month) ? months : [month, ...months];
  return (
    <section className="page admin-page" aria-labelledby="invoices-title">
      <DocumentTitle page={pages.adminInvoices.title} />
      <h1 id="invoices-title">Invoices</h1>
      <AdminNav />
      <Form method="get" className="filters" aria-label="Month">
        <div className="field">
          <label htmlFor={monthId}>Month</label>
          <select id={monthId} name="month" defaultValue={month} key={month}>
            {choices.map((choice) => (
              <option key={choice} value={choice}>
                {monthLabel(choice, format.locale)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button-quiet">
          Show
        </button>
      </Form>
      <h2>{label}</h2>
      {documents.length === 0 ? (
        <p>No invoices or credit notes in {label}.</p>
      ) : (
        <>
          <p>
            <a
              className="button"
              href={`${documentPaths.adminInvoicesZip}?month=${month}`}
              download={`invoices-${month}.zip`}
            >
              Download {label}
            </a>{' '}
            Every PDF of the month and a summary for the books (summary.csv), in one ZIP file.
          </p>
          <DataTable label={`Invoices and credit notes of ${label}`}>
            <thead>
              <tr>
                <th scope="col">Number</th>
                <th scope="col">Kind</th>
                <th scope="col">Date</th>
                <th scope="col">Order</th>
                <th scope="col">Rider</th>
                <th scope="col" className="number">
                  Total
                </th>
                <th scope="col">PDF</th>
              </tr>
            </thead>
            <tbody>
              {documents.map((document) => (
                <tr key={document.number}>
                  <td>{document.number}</td>
                  <td>
                    {documentLabels[document.kind]}
                    {document.cancels ? ` of ${document.cancels}` : ''}
                  </td>
                  <td>{formatDate(document.issuedAt, format.locale, format.timeZone)}</td>
                  <td>
                    <Link to={fillPath(pages.adminOrder.path, { number: document.order })}>{document.order}</Link>
                  </td>
                  <td>{document.rider}</td>
                  <td className="number">{formatCents(document.totalCents, format)}</td>
                  <td>
                    <a
                      href={fillPath(documentPaths.adminInvoice, { number: document.number })}
                      download={documentFileName(document.number)}
                    >
                      Download {document.number}
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        </>
      )}
    </section>
  );
}
