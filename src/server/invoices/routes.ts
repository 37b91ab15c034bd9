import type { Context } from 'hono';
import { Hono } from 'hono';
import { endpoints } from '../../shared/api';
import { type DocumentKind, documentFileName, documentNumberPattern } from '../../shared/invoices';
import type { AppEnv } from '../app-env';
import type { Sessions } from '../auth/sessions';
import { HttpError } from '../http/errors';
import { orderNumberParam, readQuery } from '../http/input';
import type { SettingsStore } from '../settings/settings-store';
import { invoicePdf } from './invoice-pdf';
import type { InvoiceRecord } from './invoice-record';
import { monthZip } from './invoice-zip';
import { currentMonth, type Invoices } from './invoicing';

export interface InvoiceRouteParts {
  sessions: Sessions;
  invoices: Invoices;
  /** The shop's settings: the month shown first is the shop's, in its time zone. */
  settings: Pick<SettingsStore, 'current'>;
}

/** A document as a PDF download; none is a 404 (another rider's too, as orders answer it). */
async function pdfReply(c: Context<AppEnv>, record: InvoiceRecord | undefined): Promise<Response> {
  if (!record) throw new HttpError('invoice/not-found');
  return c.body(new Uint8Array(await invoicePdf(record)), 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="${documentFileName(record.number)}"`,
    'Cache-Control': 'private, no-store',
  });
}

/**
 * Invoices and credit notes (docs/product.md §20): a rider's own, from their order (every query filtered by the
 * session's user), and the owner's by month, one at a time or a month's as a ZIP (the owner's role checked on every
 * request, as the rest of the back office).
 */
export function invoiceRoutes({ sessions, invoices, settings }: InvoiceRouteParts) {
  const session = sessions.require();
  const owner = sessions.require({ owner: true });
  const ofOrder = (kind: DocumentKind) => async (c: Context<AppEnv>) => {
    const number = orderNumberParam(c.req.param('number') ?? '');
    return pdfReply(c, await invoices.ofOrder(number, kind, c.get('session').user.uid));
  };
  return new Hono<AppEnv>()
    .get(endpoints.orderInvoice.path, session, ofOrder('invoice'))
    .get(endpoints.orderCreditNote.path, session, ofOrder('credit-note'))
    .get(endpoints.orderDocument.path, session, async (c) => {
      const order = orderNumberParam(c.req.param('number') ?? '');
      const number = c.req.param('document') ?? '';
      const { uid } = c.get('session').user;
      return pdfReply(
        c,
        documentNumberPattern.test(number) ? await invoices.ofOrderByNumber(order, number, uid) : undefined,
      );
    })

    .get(endpoints.adminInvoices.path, owner, async (c) => {
      const month =
        readQuery(c, endpoints.adminInvoices.query).month ?? currentMonth((await settings.current()).format.timeZone);
      return c.json({ month, ...(await invoices.month(month)) });
    })

    .get(endpoints.adminInvoicesZip.path, owner, (c) => {
      const { month } = readQuery(c, endpoints.adminInvoicesZip.query);
      return c.body(monthZip(invoices.records(month)), 200, {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="invoices-${month}.zip"`,
        'Cache-Control': 'private, no-store',
      });
    })

    .get(endpoints.adminInvoice.path, owner, async (c) => {
      const number = c.req.param('number');
      return pdfReply(c, documentNumberPattern.test(number) ? await invoices.byNumber(number) : undefined);
    });
}
