import { useId } from 'react';
import { Form, Link, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { endpoints } from '../../../shared/api';
import { formatCents } from '../../../shared/money';
import { pages } from '../../../shared/pages';
import {
  type ChartUnit,
  presetLabels,
  type Report,
  type ReportFigures,
  type ReportItem,
  reportPresets,
} from '../../../shared/reports';
import type { ShopFormat } from '../../../shared/settings';
import { Alert } from '../../components/alert';
import { DataTable } from '../../components/data-table';
import { DocumentTitle } from '../../components/document-title';
import { ApiError, call } from '../../lib/api';
import { useFormat } from '../../lib/shop';
import { AdminNav } from './admin-nav';
import { NetSalesChart, stepLabel } from './net-sales-chart';

/** The report, or why the period was refused; the preset the address names (none for two dates). */
type Loaded = { preset: string | undefined } & (
  | { report: Report; search: string; error?: never }
  | { error: string; report?: never; search?: never }
);

/** The period in the address: `period`, or `from` and `to`; a period the server refuses is said on the page. */
export async function loader({ request }: LoaderFunctionArgs): Promise<Loaded> {
  const params = new URL(request.url).searchParams;
  const query: Record<string, string> = {};
  for (const name of ['period', 'from', 'to']) {
    const value = params.get(name);
    if (value) query[name] = value;
  }
  const preset = query.period ?? (query.from || query.to ? undefined : 'this-month');
  try {
    const search = new URLSearchParams(query).toString();
    return { preset, report: await call('adminReport', { query }), search };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return { preset, error: error.message };
    throw error;
  }
}

const figureLabels: [keyof ReportFigures, string][] = [
  ['orders', 'Orders'],
  ['grossCents', 'Gross sales'],
  ['discountCents', 'Discounts'],
  ['refundCents', 'Refunds'],
  ['netCents', 'Net sales'],
  ['shippingCents', 'Shipping'],
  ['taxCents', 'Tax'],
  ['averageOrderCents', 'Average order'],
];

const stepNames: Record<ChartUnit, string> = { day: 'Day', week: 'Week from', month: 'Month from' };

const longDate = (day: string, locale: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString(locale, { dateStyle: 'medium', timeZone: 'UTC' });

function Figures({ report, format }: { report: Report; format: ShopFormat }) {
  const show = (name: keyof ReportFigures, value: number) =>
    name === 'orders' ? value.toLocaleString(format.locale) : formatCents(value, format);
  return (
    <dl className="report-figures">
      {figureLabels.map(([name, label]) => (
        <div key={name}>
          <dt>{label}</dt>
          <dd>
            <strong>{show(name, report.figures[name])}</strong>
            <span>Before: {show(name, report.previous[name])}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function BestTable({ title, items, format }: { title: string; items: ReportItem[]; format: ShopFormat }) {
  const id = useId();
  return (
    <div>
      <h3 id={id}>{title}</h3>
      {items.length === 0 ? (
        <p>Nothing sold.</p>
      ) : (
        <DataTable labelledBy={id}>
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col" className="number">
                Units
              </th>
              <th scope="col" className="number">
                Net sales
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={`${item.itemid} ${item.size ?? ''}`}>
                <td>{item.size === null ? item.name : `${item.name}, ${item.size}`}</td>
                <td className="number">{item.units}</td>
                <td className="number">{formatCents(item.netCents, format)}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </div>
  );
}

function Period({ report, preset }: { report?: Report; preset: string | undefined }) {
  return (
    <>
      <nav className="filters" aria-label="Period">
        {reportPresets.map((name) => (
          <Link
            key={name}
            to={`${pages.adminReports.path}?period=${name}`}
            aria-current={preset === name ? 'page' : undefined}
          >
            {presetLabels[name]}
          </Link>
        ))}
      </nav>
      <Form method="get" className="filters" aria-label="Dates">
        <div className="field">
          <label htmlFor="report-from">From</label>
          <input id="report-from" type="date" name="from" defaultValue={report?.period.from} required />
        </div>
        <div className="field">
          <label htmlFor="report-to">To</label>
          <input id="report-to" type="date" name="to" defaultValue={report?.period.to} required />
        </div>
        <button type="submit" className="button button-quiet">
          Show
        </button>
      </Form>
    </>
  );
}

/** The owner's reports (docs/product.md §26): how a period went, and the tax to file for it. */
export default function AdminReportsPage() {
  const format = useFormat();
  const loaded = useLoaderData<typeof loader>();
  const head = (
    <>
      <DocumentTitle page={pages.adminReports.title} />
      <h1 id="reports-title">Reports</h1>
      <AdminNav />
    </>
  );
  if (loaded.error !== undefined) {
    return (
      <section className="page admin-page" aria-labelledby="reports-title">
        {head}
        <Period preset={loaded.preset} />
        <Alert kind="alert">{loaded.error}</Alert>
      </section>
    );
  }
  const { report, search } = loaded;
  const { period, chart, lowStock } = report;
  const date = (day: string) => longDate(day, format.locale);
  const span = `${date(period.from)} to ${date(period.to)}`;
  return (
    <section className="page admin-page" aria-labelledby="reports-title">
      {head}
      <Period key={search} report={report} preset={loaded.preset} />
      <h2>{span}</h2>
      <p>
        Beside the period before: {date(period.previousFrom)} to {date(period.previousTo)}.
      </p>
      <Figures report={report} format={format} />

      <h2 id="chart-title">Net sales by {period.unit}</h2>
      <NetSalesChart chart={chart} format={format} />
      <DataTable labelledBy="chart-title">
        <thead>
          <tr>
            <th scope="col">{stepNames[period.unit]}</th>
            <th scope="col" className="number">
              Net sales
            </th>
            <th scope="col">Before</th>
            <th scope="col" className="number">
              Net sales before
            </th>
          </tr>
        </thead>
        <tbody>
          {chart.map((step) => (
            <tr key={step.from}>
              <th scope="row">{stepLabel(step.from, format.locale)}</th>
              <td className="number">{formatCents(step.netCents, format)}</td>
              <td>{step.previousFrom ? stepLabel(step.previousFrom, format.locale) : ''}</td>
              <td className="number">
                {step.previousNetCents === null ? '' : formatCents(step.previousNetCents, format)}
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>

      <h2>Best sellers</h2>
      <div className="report-grid">
        <BestTable title="Products by net sales" items={report.products.byNet} format={format} />
        <BestTable title="Products by units" items={report.products.byUnits} format={format} />
        <BestTable title="Sizes by net sales" items={report.sizes.byNet} format={format} />
        <BestTable title="Sizes by units" items={report.sizes.byUnits} format={format} />
      </div>

      <h2 id="codes-title">Discount codes</h2>
      {report.discounts.length === 0 ? (
        <p>No discount code was used.</p>
      ) : (
        <DataTable labelledBy="codes-title">
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col" className="number">
                Orders
              </th>
              <th scope="col" className="number">
                Took off
              </th>
            </tr>
          </thead>
          <tbody>
            {report.discounts.map((code) => (
              <tr key={code.code}>
                <td>{code.code}</td>
                <td className="number">{code.orders}</td>
                <td className="number">
                  {code.kind === 'free-shipping' ? 'Free shipping' : formatCents(code.takenCents, format)}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}

      <h2 id="low-title">Low in stock</h2>
      <p>
        {lowStock.count} {lowStock.count === 1 ? 'size has' : 'sizes have'} {lowStock.threshold} or fewer left
        {lowStock.count > lowStock.sizes.length ? `; the ${lowStock.sizes.length} soonest to sell out:` : '.'}
      </p>
      {lowStock.sizes.length > 0 && (
        <DataTable labelledBy="low-title">
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">Size</th>
              <th scope="col" className="number">
                Left
              </th>
              <th scope="col" className="number">
                Sold
              </th>
              <th scope="col">Sold out in</th>
            </tr>
          </thead>
          <tbody>
            {lowStock.sizes.map((size) => (
              <tr key={`${size.itemid} ${size.size}`}>
                <td>{size.name}</td>
                <td>{size.size}</td>
                <td className="number">{size.left}</td>
                <td className="number">{size.units}</td>
                <td>
                  {size.left === 0
                    ? 'Sold out'
                    : size.daysLeft === null
                      ? 'No sales in the period'
                      : `${size.daysLeft} ${size.daysLeft === 1 ? 'day' : 'days'}`}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}

      <h2 id="tax-title">Tax collected</h2>
      <p>
        <a
          className="button"
          href={`${endpoints.adminReportTaxCsv.path}?${search}`}
          download={`piaffe-tax-${period.from}-to-${period.to}.csv`}
        >
          Download CSV
        </a>{' '}
        The tax of the period’s invoices less its credit notes’, by name and place, to file.
      </p>
      {report.tax.length === 0 ? (
        <p>No tax was collected in the period.</p>
      ) : (
        <DataTable labelledBy="tax-title">
          <thead>
            <tr>
              <th scope="col">Tax</th>
              <th scope="col">Place</th>
              <th scope="col" className="number">
                Collected
              </th>
            </tr>
          </thead>
          <tbody>
            {report.tax.map((row) => (
              <tr key={`${row.name} ${row.country} ${row.region}`}>
                <td>{row.name}</td>
                <td>{row.place}</td>
                <td className="number">{formatCents(row.amountCents, format)}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </section>
  );
}
